"""A course card: the scorecard a designer prints for a course of 9 or 18 holes.

``draw_card(holes, title, path)`` draws, for every hole, its deal in miniature (the
tableau's columns, small card faces with rank and suit, red suits red, and the card the
foundation starts on), its par and its difficulty, then the course par (the sum of the
hole pars) and blank score boxes, one row per player.  Eighteen holes are set out as a
real card is: the front nine (Out) above the back nine (In), then the total.

The interface is narrow on purpose: a hole is its cards as board text (``"QD"``,
``"JK"`` for a joker), its integer par and a short difficulty text, so the card knows
nothing of how a course is chosen or how its par is set.  The file type follows the
suffix (``.png`` or ``.svg``); SVG keeps its text as text (searchable, selectable).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

#: File types the card is written as, by suffix.
CARD_SUFFIXES = (".png", ".svg")
#: Blank score rows when no player is named.
BLANK_ROWS = 4
#: Holes per band of the card (a nine).
_NINE = 9
_SUIT = {"S": ("\u2660", "#111111"), "C": ("\u2663", "#111111"),
         "H": ("\u2665", "#c8102e"), "D": ("\u2666", "#c8102e")}
_RANK = {"T": "10"}
# Layout, in card units (one unit is _UNIT inches on the page).
_UNIT = 0.15
_LABEL_W, _HOLE_W, _SUM_W = 9.0, 10.0, 6.0
_HEAD_H, _ROW_H, _SCORE_H, _GAP = 2.0, 2.0, 2.4, 2.0
_COLUMNS_PER_ROW = 9  # tableaus wider than this (Black Hole: 17 columns) wrap


class CardError(ValueError):
    """A card that cannot be drawn as asked: no holes, a hole count a card does not have,
    a card text it cannot read, an unknown file type."""


@dataclass(frozen=True)
class CardHole:
    """One hole of the card: the tableau's columns, each listed from the first card dealt
    to the one on top (the playable card), in board text; the foundation's first card
    (None: the foundation starts empty); the stock's size; the par; the difficulty."""

    columns: tuple[tuple[str, ...], ...]
    foundation: str | None
    stock: int
    par: int
    difficulty: str = ""


def course_par(holes: list[CardHole]) -> int:
    """The course's par: the sum of its holes' pars."""
    return sum(h.par for h in holes)


def _face(card: str) -> tuple[str, str]:
    """A card's face text (rank then suit symbol) and its colour; ``CardError`` if unknown."""
    text = card.strip().upper()
    if text == "JK":
        return "\u2605", "#6a1b9a"  # a joker: a star
    rank, suit = text[:-1], text[-1:]
    if suit not in _SUIT or rank not in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "10",
                                         "J", "Q", "K"):
        raise CardError(f"not a card: {card!r} (expected board text such as QD, TH, JK)")
    symbol, color = _SUIT[suit]
    return _RANK.get(rank, rank) + symbol, color


def draw_card(holes: list[CardHole], title: str, path: Path | str, players: int = BLANK_ROWS,
              footnote: str = "") -> Path:
    """Draw the course card of ``holes`` (9 or 18) to ``path`` (PNG or SVG by its suffix),
    with ``players`` blank score rows (at least one); returns the path.  ``CardError`` for
    what cannot be drawn; ``OSError`` if the file cannot be written."""
    path = Path(path)
    if path.suffix.lower() not in CARD_SUFFIXES:
        raise CardError(f"a card is written as {' or '.join(CARD_SUFFIXES)}, not {path.name!r}")
    if len(holes) not in (_NINE, 2 * _NINE):
        raise CardError(f"a course card has 9 or 18 holes, not {len(holes)}")
    for hole in holes:  # every face is read before anything is drawn
        for card in [c for col in hole.columns for c in col] + [hole.foundation or "JK"]:
            _face(card)
    fig = _Card(holes, title, max(1, players), footnote).figure()
    _save(fig, path)
    return path


def _save(fig, path: Path) -> None:
    import matplotlib

    if path.suffix.lower() == ".svg":
        with matplotlib.rc_context({"svg.hashsalt": "golfstats", "svg.fonttype": "none"}):
            fig.savefig(path, format="svg", metadata={"Date": None, "Creator": None})
    else:
        fig.savefig(path, format="png", dpi=160, metadata={"Software": None})


class _Card:
    """The drawing: one axes in card units (y grows downwards), bands of nine holes."""

    def __init__(self, holes: list[CardHole], title: str, players: int, footnote: str) -> None:
        self.holes, self.title, self.players, self.footnote = holes, title, players, footnote
        self.bands = [holes[i:i + _NINE] for i in range(0, len(holes), _NINE)]
        self.width = _LABEL_W + _NINE * _HOLE_W + _SUM_W * (2 if len(self.bands) > 1 else 1)
        deepest = max(len(col) for h in holes for col in h.columns) if holes else 1
        widest = max(len(h.columns) for h in holes)
        self.deal_rows = math.ceil(widest / _COLUMNS_PER_ROW)
        per_row = math.ceil(widest / self.deal_rows)
        self.pitch = (_HOLE_W - 0.8) / per_row
        self.card_w, self.card_h = 0.9 * self.pitch, 1.35 * 0.9 * self.pitch
        self.step = max(0.42, 0.36 * self.card_h)  # the visible strip of a covered card
        self.tableau_h = self.card_h + (deepest - 1) * self.step
        self.deal_h = self.deal_rows * (self.tableau_h + 0.4) + self.card_h + 1.6
        self.band_h = _HEAD_H + self.deal_h + 2 * _ROW_H + players * _SCORE_H
        self.height = 4.2 + len(self.bands) * (self.band_h + _GAP) + 1.2

    def figure(self):
        from matplotlib.figure import Figure

        fig = Figure(figsize=(self.width * _UNIT, self.height * _UNIT))
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, self.width)
        ax.set_ylim(self.height, 0)
        ax.set_axis_off()
        self.ax = ax
        self.pt = 72 * _UNIT  # points per card unit, for font sizes
        par = course_par(self.holes)
        ax.text(0.6, 1.6, self.title, fontsize=1.25 * self.pt, weight="bold", va="center")
        ax.text(self.width - 0.6, 1.6, f"Course par {par}", fontsize=1.25 * self.pt, weight="bold",
                va="center", ha="right")
        ax.text(0.6, 3.2, f"{len(self.holes)} holes; a hole's score is the cards left on the "
                "tableau (a win scores minus the stock cards left)", fontsize=0.7 * self.pt,
                va="center", color="#444")
        y = 4.2
        for k, band in enumerate(self.bands):
            self._band(band, k, y)
            y += self.band_h + _GAP
        if self.footnote:
            ax.text(0.6, y - _GAP + 0.7, self.footnote, fontsize=0.65 * self.pt, va="center",
                    color="#444")
        return fig

    # ------------------------------------------------------------------ a band of nine

    def _band(self, band: list[CardHole], k: int, top: float) -> None:
        first = k * _NINE + 1
        sums = (["Out", "In"][k] if len(self.bands) > 1 else "Total",)
        if len(self.bands) > 1 and k == len(self.bands) - 1:
            sums += ("Total",)
        x_sum = _LABEL_W + _NINE * _HOLE_W
        rows = [("Hole", _HEAD_H), ("", self.deal_h), ("Par", _ROW_H), ("Difficulty", _ROW_H)]
        rows += [("", _SCORE_H)] * self.players
        y = top
        for r, (label, h) in enumerate(rows):
            shade = "#1b5e20" if r == 0 else "#e8f5e9" if label in ("Par", "Difficulty") else "white"
            ink = "white" if r == 0 else "#222"
            self._box(0, y, _LABEL_W, h, shade)
            if label:
                self.ax.text(0.5, y + h / 2, label, fontsize=0.8 * self.pt, va="center", color=ink,
                             weight="bold")
            elif r > 3:
                self.ax.text(0.5, y + h - 0.45, "name", fontsize=0.5 * self.pt, color="#999")
            for i in range(_NINE):
                self._box(_LABEL_W + i * _HOLE_W, y, _HOLE_W, h, shade)
            for j, name in enumerate(sums):
                self._box(x_sum + j * _SUM_W, y, _SUM_W, h, shade if r != 1 else "#f5f5f5")
                if r == 0:
                    self._centre(x_sum + (j + 0.5) * _SUM_W, y + h / 2, name, 0.8, ink, "bold")
            y += h
        y_deal = top + _HEAD_H
        y_par = y_deal + self.deal_h
        for i, hole in enumerate(band):
            x = _LABEL_W + i * _HOLE_W
            self._centre(x + _HOLE_W / 2, top + _HEAD_H / 2, str(first + i), 0.9, "white", "bold")
            self._deal(hole, x, y_deal)
            self._centre(x + _HOLE_W / 2, y_par + _ROW_H / 2, str(hole.par), 0.95, "#222", "bold")
            self._centre(x + _HOLE_W / 2, y_par + 1.5 * _ROW_H, hole.difficulty or "\u2013",
                         0.62, "#333")
        self._centre(x_sum + _SUM_W / 2, y_par + _ROW_H / 2, str(course_par(band)), 0.95, "#222",
                     "bold")
        if len(sums) > 1:
            self._centre(x_sum + 1.5 * _SUM_W, y_par + _ROW_H / 2, str(course_par(self.holes)),
                         0.95, "#222", "bold")

    # ------------------------------------------------------------------ a hole's deal

    def _deal(self, hole: CardHole, x0: float, y0: float) -> None:
        per_row = math.ceil(len(hole.columns) / self.deal_rows)
        for c, column in enumerate(hole.columns):
            row, place = divmod(c, per_row)
            x = x0 + 0.4 + place * self.pitch + (self.pitch - self.card_w) / 2
            y = y0 + 0.4 + row * (self.tableau_h + 0.4)
            for depth, card in enumerate(column):
                self._card_face(card, x, y + depth * self.step, top=depth == len(column) - 1)
        y = y0 + 0.6 + self.deal_rows * (self.tableau_h + 0.4)
        x = x0 + 0.4 + (self.pitch - self.card_w) / 2
        if hole.foundation:
            self._card_face(hole.foundation, x, y, top=True, edge="#b8860b")
        else:
            self._box(x, y, self.card_w, self.card_h, "none", edge="#999", dashed=True)
        self.ax.text(x + self.card_w + 0.3, y + self.card_h * 0.35, "foundation" if hole.foundation
                     else "foundation: empty", fontsize=0.5 * self.pt, va="center", color="#555")
        self.ax.text(x + self.card_w + 0.3, y + self.card_h * 0.8,
                     f"stock {hole.stock}" if hole.stock else "no stock",
                     fontsize=0.5 * self.pt, va="center", color="#555")

    def _card_face(self, card: str, x: float, y: float, top: bool, edge: str = "#555") -> None:
        from matplotlib.patches import FancyBboxPatch

        text, color = _face(card)
        pad = 0.08 * self.card_w
        self.ax.add_patch(FancyBboxPatch((x + pad, y + pad), self.card_w - 2 * pad,
                                         self.card_h - 2 * pad, boxstyle=f"round,pad={pad}",
                                         facecolor="white", edgecolor=edge, linewidth=0.5))
        size = min(0.55 * self.pt * self.card_w, 0.9 * self.step * self.pt)
        # the corner strip shows on every card; the top card also shows its face large
        self.ax.text(x + 0.1 * self.card_w, y + 0.05 * self.card_h, text, fontsize=size,
                     color=color, va="top", ha="left")
        if top:
            self._centre(x + self.card_w / 2, y + 0.62 * self.card_h, text, 0, color, "bold",
                         size=(1.25 if len(text) < 3 else 0.95) * size)  # "10♦" is wider

    # ------------------------------------------------------------------ helpers

    def _box(self, x, y, w, h, face, edge="#2e7d32", dashed=False) -> None:
        from matplotlib.patches import Rectangle

        self.ax.add_patch(Rectangle((x, y), w, h, facecolor=face, edgecolor=edge,
                                    linewidth=0.6, linestyle="--" if dashed else "-"))

    def _centre(self, x, y, text, scale, color, weight="normal", size=None) -> None:
        self.ax.text(x, y, text, fontsize=size or scale * self.pt, color=color, weight=weight,
                     ha="center", va="center")


__all__ = ["BLANK_ROWS", "CARD_SUFFIXES", "CardError", "CardHole", "course_par", "draw_card"]
