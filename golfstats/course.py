"""Courses: 9 or 18 seeded deals with a par for each hole ("hole of the day").

Deal identity.  A hole is deal ``index`` of seed ``seed`` of golfstats' seeded deals
(``golfstats deal --seed S --index I`` shows it), under the course's rule set.

Date rule.  The course of a date uses the seed ``int(YYYYMMDD)``: 2025-03-14 is
seed 20250314.  A course takes the deals of that seed in index order 0, 1, 2, ...;
with ``winnable`` it skips every deal the exact solver cannot win, so it is still
a function of (variant, date) only: the same date always gives the same course.

Hole par.  What the reference policy scores on that deal (playing with the deal's
own key, as in a simulate run), clamped to 3..5 by default.  The course's par is
the sum of its hole pars.

Difficulty.  A band of honest win chance (perfect play without peeking,
``golfstats.odds``: the chance a player who cannot see the stock wins with the best
play) keeps only the deals whose chance lies in [low, high).  ``easy``, ``medium`` and
``hard`` are the thirds of the rule set's own deals that some order of the stock wins
(``DIFFICULTY``: the cut points, measured per plain king rule),
because win chances differ by rule set far more than any fixed band allows: no strict
deal of the first hundred has a chance of 50%, most putt-putt deals do.  ``min_win`` and
``max_win`` give the band directly (any rule set).  Only the chance of winning is
computed (the fast path); hole par is the reference player's, as for every course.
The deals are valued on ``workers`` processes and kept in index order, so the course
does not depend on them.  A deal the honest computation cannot resolve within its budget
is skipped and counted.  The search stops with a clear message when the band is too rare
to fill within ``max_deals`` or the ``time_limit``.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from golfstats.goals import TOL, Goal
from golfstats.rules import Rules

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
DIFFICULTY = {"strict": (0.04, 0.14), "queens-on-kings": (0.12, 0.30), "putt-putt": (0.73, 0.90)}


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
    number: int
    seed: int
    index: int
    par: int
    reference_strokes: float
    winnable: bool | None  # None when not checked
    board: str
    win_p: float | None = None  # honest win probability (with a difficulty)


@dataclass(frozen=True)
class Course:
    variant: str
    holes: int
    seed: int
    date: str | None
    policy: str
    winnable_only: bool
    difficulty: str | None
    hole_par_min: int
    hole_par_max: int
    par: int
    deals_examined: int
    rule: str
    hole_list: list[Hole] = field(default_factory=list)
    band: str | None = None  # the band of honest win chance kept, in words

    def to_json(self) -> str:
        data = asdict(self)
        data["hole_list"] = [asdict(h) for h in self.hole_list]
        return json.dumps(data, indent=2) + "\n"

    @property
    def reference_total(self) -> int:
        """The reference player's own strokes on the course (hole pars before the bounds)."""
        return round(sum(h.reference_strokes for h in self.hole_list))

    def par_note(self) -> str:
        """Why the course's par is what it is, and how it relates to ``golfstats par``."""
        return (f"course par {self.par} = the sum of the hole pars; {self.policy} itself scores "
                f"{self.reference_total} on these deals, the bounds {self.hole_par_min}.."
                f"{self.hole_par_max} making the difference (`golfstats par` gives the par of a "
                "round of unchosen deals, its median total, which has no bounds)")

    def text(self) -> str:
        """Board text of every hole (comment lines start with ``#``), readable by ``parse_boards``."""
        when = f"date {self.date}, " if self.date else ""
        band = f"; only {self.band} deals" if self.band else ""
        lines = [f"# rules: {self.variant}",  # the rule set, for the commands that read the file
                 f"# {self.variant}: {self.holes}-hole course, {when}seed {self.seed}, par {self.par}",
                 f"# hole par = {self.policy}'s strokes on the deal, kept within "
                 f"{self.hole_par_min}..{self.hole_par_max}"
                 + ("; only deals the exact solver wins" if self.winnable_only else "") + band,
                 f"# {self.par_note()}", ""]
        for hole in self.hole_list:
            chance = "" if hole.win_p is None else f", honest win chance {100 * hole.win_p:.1f}%"
            lines.append(f"# hole {hole.number}: par {hole.par} (seed {hole.seed}, index {hole.index}"
                         f"{chance})")
            lines.append(hole.board.rstrip("\n"))
            lines.append("")
        return "\n".join(lines)


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


def make_course(rules: Rules, holes: int, seed: int, *, date: str | None = None, winnable: bool = False,
                policy: Policy | str | None = None, hole_par_min: int = 3, hole_par_max: int = 5,
                max_deals: int | None = None, band: Band | None = None, workers: int = 1,
                time_limit: float | None = None, progress=None) -> Course:
    """The course of ``holes`` holes from ``seed`` (see the module doc for the rules).

    ``policy`` is the reference player of the hole pars (default ``lookahead``).
    ``max_deals`` bounds the deals examined when some are skipped (default 200 per hole,
    40 with a band); ``time_limit`` (seconds) the search; ``CourseError`` if too few
    deals qualify within them.  ``progress(examined, kept, holes)`` is told as it goes.
    """
    from golfstats.board import format_board
    from golfstats.deals import DealBatch, board_from_cards, seeded_deals
    from golfstats.policies import PAR_REFERENCE, parse_policy, play_deals

    if holes not in (9, 18):
        raise CourseError(f"a course has 9 or 18 holes, not {holes}")
    if hole_par_min > hole_par_max:
        raise CourseError(f"hole par minimum {hole_par_min} is above the maximum {hole_par_max}")
    reference = (parse_policy(policy) if isinstance(policy, str) else policy) if policy else None
    reference = reference or parse_policy(PAR_REFERENCE)
    limit = max_deals if max_deals is not None else (40 if band else 200) * holes
    started = time.monotonic()
    chosen: list[Hole] = []
    skipped = examined = 0
    start = 0
    def give_up(found: list[int]) -> None:
        stop = _stop(len(found), holes, examined, limit, started, time_limit, band, workers)
        if stop:
            got = (f"{len(found)} of {holes} holes found (deals {', '.join(map(str, found))})"
                   if found else f"none of its {holes} holes found")
            raise CourseShort(f"{rules.id}, seed {seed}: {stop}"
                              + (f"; {skipped} deals unresolved, left out" if skipped else "")
                              + f"; no course: {got}")

    with _Valuer(rules, workers if band else 1) as valuer:
        while len(chosen) < holes:
            give_up([h.index for h in chosen])
            batch = seeded_deals(rules, seed, start, min(_BATCH, limit - start))
            boards = [board_from_cards(rules, cards) for cards in batch.cards]
            if progress:  # the batch's first deals are being valued
                progress(examined, len(chosen), holes)
            keep = []
            for k, verdict in enumerate(valuer.judge(boards, winnable, band)):
                examined += 1
                if verdict is None:
                    skipped += 1
                elif verdict is not False:
                    keep.append((k, verdict))
                if progress:
                    progress(examined, len(chosen) + len(keep), holes)
                if len(chosen) + len(keep) == holes:
                    break
                give_up([h.index for h in chosen] + [start + k for k, _ in keep])
            if keep:
                sub = DealBatch(start, batch.cards[[k for k, _ in keep]], batch.keys[[k for k, _ in keep]])
                strokes = [float(s) for s in play_deals(rules, reference, sub)["strokes"]]
                for (k, verdict), s in zip(keep, strokes, strict=True):
                    par = int(min(max(round(s), hole_par_min), hole_par_max))
                    chosen.append(Hole(len(chosen) + 1, seed, start + k, par, s,
                                       True if winnable else None, format_board(boards[k], rules),
                                       None if verdict is True else verdict.win_p))
            start += len(batch.cards)
    rule = ("seed = int(YYYYMMDD) of the date; holes are the seed's deals in index order"
            + (", skipping deals the exact solver cannot win" if winnable else "")
            + (f", keeping the {band.text()}" if band else ""))
    return Course(rules.id, holes, seed, date, reference.spec, winnable,
                  band.name if band else None, hole_par_min, hole_par_max,
                  sum(h.par for h in chosen), examined, rule, chosen,
                  band.text() if band else None)


def _stop(found, holes, examined, limit, started, time_limit, band, workers) -> str | None:
    """Why the search must stop now (None: it goes on): the deal limit, the time limit, or
    a band so rare at the rate seen that the limit cannot fill it."""
    what = band.text() if band else "winnable"
    rate = f"{found} of the first {examined} deals are {what}"
    if examined >= limit:
        return f"only {rate}"
    elapsed = time.monotonic() - started
    if time_limit and elapsed > time_limit:
        need = (holes - found) * examined / max(found, 0.5)
        more = need * elapsed / max(examined, 1)
        return (f"stopped at the time limit after {elapsed / 60:.1f} min: {rate}; about "
                f"{need:.0f} more deals (~{max(1, round(more / 60))} min on {workers} "
                f"worker{'s' if workers > 1 else ''}) would finish it: raise --time-limit or "
                "widen the band")
    if band and examined >= 30 and (holes - found) * examined / max(found, 0.5) > limit - examined:
        return (f"only {rate}: at that rate the {limit}-deal limit cannot fill the course; "
                "widen the band")
    return None


class _Valuer:
    """Judges deals (``_qualifies``), on a pool of ``workers`` processes when there are
    several; verdicts come back in the deals' order."""

    def __init__(self, rules: Rules, workers: int) -> None:
        self._rules, self._workers, self._pool = rules, max(1, workers), None

    def __enter__(self) -> _Valuer:
        if self._workers > 1:
            import multiprocessing as mp

            self._pool = mp.get_context("spawn").Pool(self._workers)
        return self

    def __exit__(self, *exc) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()

    def judge(self, boards, winnable: bool, band: Band | None):
        tasks = [(b, self._rules, winnable, band) for b in boards]
        if self._pool is None:
            yield from (_qualifies(*t) for t in tasks)
        else:
            yield from self._pool.imap(_qualifies_task, tasks)


def _qualifies_task(task):
    return _qualifies(*task)


def _qualifies(board, rules: Rules, winnable: bool, band: Band | None):
    """False: the deal is left out; None: unresolved (left out, counted); otherwise True,
    or the deal's honest ``Odds`` (its chance of winning) when a band asks for them."""
    from golfstats.solver import solve

    if winnable and not solve(board, rules, Goal.WIN).won:
        return False
    if band is None:
        return True
    from golfstats import odds as honest

    value = honest.odds(board, rules, Goal.WIN)
    if not value.resolved:
        return None
    return value if band.holds(value.win_p) else False
