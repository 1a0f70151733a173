"""Courses: 9 or 18 seeded deals with a par for each hole ("hole of the day").

Deal identity.  A hole is deal ``index`` of seed ``seed`` of golfstats' seeded deals
(``golfstats deal --seed S --index I`` shows it), under the course's rule set.

Date rule.  The course of a date uses the seed ``int(YYYYMMDD)``: 2025-03-14 is
seed 20250314.  A course takes the deals of that seed in index order 0, 1, 2, ...;
with ``winnable`` it skips every deal the exact solver cannot win, so it is still
a function of (variant, date) only: the same date always gives the same course.

Par (docs/rules.md, "Par").  A hole's par is what the reference player is expected to
score on that deal over its unknown stock order (``golfstats.course_par``: exact for the
perfect golfer, else the mean over K stock orders); the course's par is the sum of the
holes' expectations, rounded, and the holes' whole-stroke pars add up to it (largest
remainder, ``course_par.hole_pars``).  The player therefore averages the course's par.
A card scale (``card_scale``, off by default) keeps each hole's par within lo..hi and
gives up exactly that.

Difficulty.  A band of honest win chance (perfect play without peeking,
``golfstats.honest``: the chance a player who cannot see the stock wins with the best
play) keeps only the deals whose chance lies in [low, high).  ``easy``, ``medium`` and
``hard`` are the thirds of the rule set's own deals that some order of the stock wins
(``DIFFICULTY``: the cut points, measured per plain king rule),
because win chances differ by rule set far more than any fixed band allows: no strict
deal of the first hundred has a chance of 50%, most putt-putt deals do.  ``min_win`` and
``max_win`` give the band directly (any rule set).  Only the chance of winning is
computed (the fast path); the hole's par is the reference player's, as for every course.
The deals are valued as tasks of the fan-out (``sim.backends``: ``workers`` local
processes, or a dask cluster) and kept in index order, so the course does not depend on
where they were valued.  A deal the honest computation cannot resolve within its budget
is skipped and counted.  The search stops with a clear message when the band is too rare
to fill within ``max_deals`` or the ``time_limit``.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import time
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from golfstats.goals import TOL
from golfstats.rules import KingRule, Rules

if TYPE_CHECKING:  # the command line imports this module for Difficulty; policies stay out
    from golfstats.policies import Policy

#: Deals examined per batch while looking for winnable ones.
_BATCH = 32


class Difficulty(StrEnum):
    """A band of honest win chance: the thirds of a rule set's deals that some order of the
    stock wins (``DIFFICULTY``)."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


DIFFICULTIES = tuple(Difficulty)
#: The honest win chances that cut a plain king rule's deals with a chance above 0 into
#: thirds (hard below the first, easy from the second), rounded to a point: measured on
#: PySolFC deals 1-100 (``benchmarks/bench_optimal.py --verbose``; strict: 95 deals above
#: 0, thirds at 0.0425 and 0.141; queens-on-kings: 96 of the 99 resolved, 0.125 and 0.303;
#: putt-putt: all 100 above 0, 0.728 and 0.899, measured 2026-12-03 once every deal
#: resolved under the default budget; the 20 seeded deals before gave 0.68 and 0.87).
DIFFICULTY = {KingRule.STRICT: (0.04, 0.14), KingRule.QUEENS_ON_KINGS: (0.12, 0.30),
              KingRule.PUTT_PUTT: (0.73, 0.90)}


class CourseError(ValueError):
    """A course that cannot be asked for: a bad date, hole count, par range or band."""


class CourseShort(CourseError):
    """The search stopped before the course was full (the deal or time limit, or a band
    too rare for the limit); the message says how far it got, the holes found included."""


def date_seed(text: str) -> int:
    """The seed of a date given as ``YYYY-MM-DD``: ``int(YYYYMMDD)``."""
    try:
        day = dt.date.fromisoformat(text.strip())
    except ValueError:
        raise CourseError(f"bad date {text!r}: expected YYYY-MM-DD, e.g. 2025-03-14") from None
    if len(text.strip()) != 10:
        raise CourseError(f"bad date {text!r}: expected YYYY-MM-DD, e.g. 2025-03-14")
    return int(day.strftime("%Y%m%d"))


@dataclass(frozen=True)
class Hole:
    """One hole: deal ``index`` of ``seed``, its whole-stroke ``par``, the reference
    player's ``expected_strokes`` on it (the par before rounding), its ``board`` text and,
    with a band, its honest win chance ``win_p``."""

    number: int
    seed: int
    index: int
    par: int
    expected_strokes: float
    winnable: bool | None  # None when not checked
    board: str
    win_p: float | None = None  # honest win probability (with a difficulty)

    @property
    def difficulty(self) -> str:
        """The hole's difficulty in words: its honest win chance, where it was valued."""
        return "" if self.win_p is None else f"honest win chance {100 * self.win_p:.1f}%"


@dataclass(frozen=True)
class Course:
    """A course card: its holes (``hole_list``), the par of each and the course's ``par``
    (their sum), and the reference player's check: its mean total ``check_total`` over
    fresh stock orders (``orders`` of each hole; NaN when the expectations are exact),
    whose difference from ``expected_total`` (the par before rounding) has the 95% noise
    ``check_noise``."""

    variant: str
    holes: int
    seed: int
    date: str | None
    policy: str
    winnable_only: bool
    difficulty: str | None
    par: int
    deals_examined: int
    rule: str
    hole_list: list[Hole] = field(default_factory=list)
    band: str | None = None  # the band of honest win chance kept, in words
    orders: int = 0  # stock orders per hole (0: exact expectations)
    expected_total: float = math.nan
    check_total: float = math.nan
    check_noise: float = math.nan
    card_scale: tuple[int, int] | None = None

    def to_json(self) -> str:
        data = asdict(self)
        data["hole_list"] = [asdict(h) for h in self.hole_list]
        return json.dumps(_finite(data), indent=2) + "\n"

    def par_note(self) -> list[str]:
        """What the par is, and the reference player's own total beside it."""
        how = ("exact expected strokes on each deal" if not self.orders else
               f"expected strokes on each deal (its mean over {self.orders} stock orders)")
        if self.card_scale:
            lo, hi = self.card_scale
            return [f"card scale {lo}..{hi}: a hole's par is {self.policy}'s {how}, kept within "
                    f"{lo}..{hi}; course par {self.par} = their sum, while {self.policy} averages "
                    f"{self.expected_total:.1f} here: the scale gives up par as its average"]
        lines = [f"par = {self.policy}'s {how} (docs/rules.md, \"Par\"); course par {self.par} = "
                 f"their sum ({self.expected_total:.2f}) rounded, the holes' pars adding up to it"]
        if self.orders:
            gap = self.check_total - self.expected_total
            lines.append(f"{self.policy}'s own mean total over {self.orders} fresh stock orders "
                         f"of each hole: {self.check_total:.2f}, {gap:+.2f} from "
                         f"{self.expected_total:.2f} (the noise of the two: +/- "
                         f"{self.check_noise:.2f}, 95%)")
        else:
            lines.append(f"{self.policy} averages {self.expected_total:.2f} on this course, exactly")
        return lines

    def table(self) -> list[str]:
        """The one table: each hole's deal, par, expectation and difficulty, and the total."""
        chance = any(h.win_p is not None for h in self.hole_list)
        head = f"{'hole':>4}  {'deal':>6}  {'par':>3}  {'expected':>8}" + (
            "  honest win chance" if chance else "")
        rows = [head]
        for h in self.hole_list:
            rows.append(f"{h.number:>4}  {h.index:>6}  {h.par:>3}  {h.expected_strokes:>8.2f}"
                        + (f"  {100 * h.win_p:>17.1f}%" if h.win_p is not None else ""))
        rows.append(f"{'total':>4}  {'':>6}  {self.par:>3}  {self.expected_total:>8.2f}")
        return rows

    def text(self) -> str:
        """The table and the board text of every hole (comment lines start with ``#``),
        readable by ``parse_boards``."""
        when = f"date {self.date}, " if self.date else ""
        band = f"; only {self.band} deals" if self.band else ""
        winnable = "; only deals the exact solver wins" if self.winnable_only else ""
        lines = [f"# rules: {self.variant}",  # the rule set, for the commands that read the file
                 f"# {self.variant}: {self.holes}-hole course, {when}seed {self.seed}: par "
                 f"{self.par}{winnable}{band}",
                 *(f"# {line}" for line in self.par_note()), "#",
                 *(f"# {row}" for row in self.table()), ""]
        for hole in self.hole_list:
            chance = f", {hole.difficulty}" if hole.win_p is not None else ""
            lines.append(f"# hole {hole.number}: par {hole.par} (seed {hole.seed}, index {hole.index}"
                         f"{chance})")
            lines.append(hole.board.rstrip("\n"))
            lines.append("")
        return "\n".join(lines)


def _finite(data):
    """``data`` with NaN numbers as None (JSON has no NaN)."""
    if isinstance(data, dict):
        return {k: _finite(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_finite(v) for v in data]
    return None if isinstance(data, float) and math.isnan(data) else data


@dataclass(frozen=True)
class Band:
    """Honest win chances [low, high) a difficulty course keeps, and its name."""

    low: float
    high: float
    name: str

    def holds(self, p: float) -> bool:
        return self.low <= p < self.high

    def text(self) -> str:
        if self.high > 1:
            where = f"{self.low:.0%} or more"
        elif self.low <= TOL:
            where = f"above 0, under {self.high:.0%}"
        else:
            where = f"{self.low:.0%} to under {self.high:.0%}"
        return f"{self.name} (honest win chance {where})"


def band_for(rules: Rules, difficulty: str | None = None, min_win: float | None = None,
             max_win: float | None = None) -> Band | None:
    """The band of a difficulty (``DIFFICULTY``) or of explicit bounds; None for neither."""
    if difficulty is None and min_win is None and max_win is None:
        return None
    if not rules.layout.has_stock:
        raise CourseError(f"{rules.id} hides nothing: every deal's honest win chance is 0 or 1; "
                          "use --winnable instead")
    if difficulty is not None:
        if min_win is not None or max_win is not None:
            raise CourseError("give a difficulty or --min-win/--max-win, not both")
        if difficulty not in DIFFICULTIES:
            raise CourseError(f"difficulty is one of {', '.join(DIFFICULTIES)}, not {difficulty!r}")
        cuts = DIFFICULTY.get(rules.id)
        if cuts is None:
            raise CourseError(f"no difficulty bands are measured for {rules.id} (only for "
                              f"{', '.join(DIFFICULTY)}); give the band as --min-win/--max-win")
        low, high = {"hard": (TOL, cuts[0]), "medium": cuts, "easy": (cuts[1], 1.0 + TOL)}[difficulty]
        return Band(low, high, difficulty)
    low = TOL if min_win is None else min_win
    high = 1.0 + TOL if max_win is None else max_win
    if not 0 <= low < high:
        raise CourseError(f"the band [{low:g}, {high:g}) is empty")
    return Band(low, high, "chosen")


@dataclass(frozen=True)
class ParSettings:
    """How a course's pars are set.  ``policy`` is the reference player of the pars
    (default ``PAR_REFERENCE``; ``optimal`` without a goal is the perfect golfer,
    ``PERFECT_GOLFER``), ``orders`` the stock orders a hole's expectation is measured on
    (``course_par.PAR_ORDERS``; unused when exact), ``card_scale`` (lo, hi) keeps each
    hole's par within lo..hi (off by default: the player then no longer averages par)."""

    policy: Policy | str | None = None
    orders: int | None = None
    card_scale: tuple[int, int] | None = None


@dataclass(frozen=True)
class DealSearch:
    """How a course's deals are searched.  ``band`` keeps the deals whose honest win chance
    lies in it; ``max_deals`` bounds the deals examined when some are skipped (default 200
    per hole, 40 with a band); ``time_limit`` (seconds) the search.  A band's deals are
    valued on ``workers`` processes of ``backend`` (``local``, or ``dask``: the cluster at
    ``scheduler``, ``sim.backends``); without a band the deals are judged in this process."""

    band: Band | None = None
    max_deals: int | None = None
    time_limit: float | None = None
    workers: int = 1
    backend: str = "local"
    scheduler: str | None = None


def make_course(rules: Rules, holes: int, seed: int, *, date: str | None = None, winnable: bool = False,
                par: ParSettings = ParSettings(), search: DealSearch = DealSearch(),
                progress=None) -> Course:
    """The course of ``holes`` holes from ``seed`` (see the module doc for the rules), its
    pars set by ``par`` and its deals found by ``search``; ``CourseShort`` if too few deals
    qualify within the search's bounds.  ``progress(examined, kept, holes)`` is told as it
    goes.
    """
    import numpy as np

    from golfstats import course_search
    from golfstats.board import format_board
    from golfstats.course_par import (
        PAR_ORDERS,
        NoExpectation,
        course_par,
        hole_pars,
        hole_values,
        par_player,
    )
    from golfstats.course_search import Z95, OutOfTime, stop_reason, time_stop
    from golfstats.deals import board_from_cards, seeded_deals
    from golfstats.policies import PAR_REFERENCE

    policy, orders, card_scale = par.policy, par.orders, par.card_scale
    band, max_deals, time_limit = search.band, search.max_deals, search.time_limit
    if holes not in (9, 18):
        raise CourseError(f"a course has 9 or 18 holes, not {holes}")
    if card_scale is not None and card_scale[0] > card_scale[1]:
        raise CourseError(f"card scale {card_scale[0]}..{card_scale[1]}: the lowest par is above "
                          "the highest")
    orders = PAR_ORDERS if orders is None else orders
    if orders < 1:
        raise CourseError(f"a hole's par needs at least one stock order, not {orders}")
    reference = par_player(policy or PAR_REFERENCE) if isinstance(policy, str | None) else policy
    limit = max_deals if max_deals is not None else (40 if band else 200) * holes
    started = time.monotonic()
    deadline = started + time_limit if time_limit else None
    kept: list[tuple] = []  # (index, cards, key, verdict) of each hole found
    skipped = examined = start = 0

    def give_up(found: list[int], why: str | None = None) -> None:
        stop = why or stop_reason(len(found), holes, examined, limit, started, time_limit, band,
                                  workers)
        if stop:
            got = (f"{len(found)} of {holes} holes found (deals {', '.join(map(str, found))})"
                   if found else f"none of its {holes} holes found")
            raise CourseShort(f"{rules.id}, seed {seed}: {stop}"
                              + (f"; {skipped} deals unresolved, left out" if skipped else "")
                              + f"; no course: {got}")

    job = course_search.CourseJob(rules, winnable, band, course_search.honest_win_p)
    # a band's values fan out
    where = (search.workers, search.backend, search.scheduler) if band else (1, "local", None)
    with course_search.Valuer(job, *where) as valuer:
        workers = valuer.workers
        while len(kept) < holes:
            give_up([k[0] for k in kept])
            batch = seeded_deals(rules, seed, start, min(_BATCH, limit - start))
            deals = [course_search.Deal(start + k, board_from_cards(rules, cards))
                     for k, cards in enumerate(batch.cards)]
            if progress:  # the batch's first deals are being valued
                progress(examined, len(kept), holes)
            try:
                for k, verdict in enumerate(valuer.judge(deals, deadline)):
                    examined += 1
                    if verdict is None:
                        skipped += 1
                    elif verdict is not False:
                        kept.append((start + k, batch.cards[k], int(batch.keys[k]), verdict))
                    if progress:
                        progress(examined, len(kept), holes)
                    if len(kept) == holes:
                        break
                    give_up([h[0] for h in kept])
            except OutOfTime:
                give_up([h[0] for h in kept], time_stop(len(kept), holes, examined, started,
                                                          workers, band))
            start += len(batch.cards)
    try:
        values = hole_values(rules, reference, seed, [k[0] for k in kept],
                             np.stack([k[1] for k in kept]), np.array([k[2] for k in kept]), orders)
    except NoExpectation as exc:
        raise CourseError(str(exc)) from None
    expected = np.array([v.expected for v in values])
    pars = hole_pars(expected)
    if card_scale is not None:
        pars = np.clip(pars, *card_scale)
    chosen = [Hole(n + 1, seed, index, int(par), float(v.expected), True if winnable else None,
                   format_board(board_from_cards(rules, cards), rules),
                   None if verdict is True else verdict)
              for n, ((index, cards, _, verdict), v, par) in enumerate(zip(kept, values, pars, strict=True))]
    exact = all(v.exact for v in values)
    # the check and the par are two means over as many independent orders: their difference's noise
    noise = math.nan if exact else Z95 * math.sqrt(2 * sum(v.sd ** 2 for v in values) / orders)
    rule = ("seed = int(YYYYMMDD) of the date; holes are the seed's deals in index order"
            + (", skipping deals the exact solver cannot win" if winnable else "")
            + (f", keeping the {band.text()}" if band else ""))
    return Course(rules.id, holes, seed, date, reference.spec, winnable,
                  band.name if band else None,
                  int(pars.sum()) if card_scale is not None else course_par(expected),
                  examined, rule, chosen, band.text() if band else None, 0 if exact else orders,
                  float(expected.sum()), math.nan if exact else sum(v.check for v in values),
                  noise, card_scale)
