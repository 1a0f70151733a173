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

Difficulty.  With ``difficulty`` a course keeps only the deals whose honest win
probability (perfect play without peeking, ``golfstats.honest``: the chance a player who
cannot see the stock wins with the best play) falls in the band of ``DIFFICULTY_BANDS``:
easy 50% or more, medium 20% to 50%, hard above 0% and under 20% (some order of the stock
wins, but a player rarely finds it).  Its holes' par is then the expected strokes of
perfect honest play on the deal, rounded and clamped to 3..5, unless a reference
``policy`` is named.  A deal the honest computation cannot resolve within its budget is
skipped and counted.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import asdict, dataclass, field

from golfstats.policies import Policy, parse_policy
from golfstats.rules import Rules

#: Deals examined per batch while looking for winnable ones.
_BATCH = 32
#: Honest win probability bands of ``difficulty``: [low, high).
DIFFICULTY_BANDS = {"easy": (0.5, 1.0 + 1e-12), "medium": (0.2, 0.5), "hard": (1e-12, 0.2)}


class CourseError(ValueError):
    """A bad date, hole count or par range, or too few winnable deals."""


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

    def to_json(self) -> str:
        data = asdict(self)
        data["hole_list"] = [asdict(h) for h in self.hole_list]
        return json.dumps(data, indent=2) + "\n"

    def text(self) -> str:
        """Board text of every hole (comment lines start with ``#``), readable by ``parse_boards``."""
        when = f"date {self.date}, " if self.date else ""
        band = f"; {self.difficulty} deals (honest win chance)" if self.difficulty else ""
        lines = [f"# {self.variant}: {self.holes}-hole course, {when}seed {self.seed}, par {self.par}",
                 f"# hole par = {self.policy}'s strokes on the deal, clamped to "
                 f"{self.hole_par_min}..{self.hole_par_max}"
                 + ("; only deals the exact solver wins" if self.winnable_only else "") + band, ""]
        for hole in self.hole_list:
            chance = "" if hole.win_p is None else f", honest win chance {100 * hole.win_p:.1f}%"
            lines.append(f"# hole {hole.number}: par {hole.par} (seed {hole.seed}, index {hole.index}"
                         f"{chance})")
            lines.append(hole.board.rstrip("\n"))
            lines.append("")
        return "\n".join(lines)


def make_course(rules: Rules, holes: int, seed: int, *, date: str | None = None, winnable: bool = False,
                policy: Policy | str | None = None, hole_par_min: int = 3, hole_par_max: int = 5,
                max_deals: int | None = None, difficulty: str | None = None) -> Course:
    """The course of ``holes`` holes from ``seed`` (see the module doc for the rules).

    ``policy`` is the reference player of the hole pars (default ``lookahead``; with a
    ``difficulty``, perfect honest play's expected strokes).  ``max_deals`` bounds the
    deals examined when some are skipped (default 200 per hole, 40 with a difficulty);
    ``CourseError`` if too few of them qualify.
    """
    from golfstats.board import format_board
    from golfstats.deals import DealBatch, board_from_cards, seeded_deals
    from golfstats.policies import play_deals

    if holes not in (9, 18):
        raise CourseError(f"a course has 9 or 18 holes, not {holes}")
    if hole_par_min > hole_par_max:
        raise CourseError(f"hole par minimum {hole_par_min} is above the maximum {hole_par_max}")
    if difficulty is not None and difficulty not in DIFFICULTY_BANDS:
        raise CourseError(f"difficulty is one of {', '.join(DIFFICULTY_BANDS)}, not {difficulty!r}")
    if difficulty is not None and not rules.layout.has_stock:
        raise CourseError(f"{rules.id} hides nothing: every deal's honest win chance is 0 or 1; "
                          "use --winnable instead of --difficulty")
    reference = (parse_policy(policy) if isinstance(policy, str) else policy) if policy else None
    if reference is None and difficulty is None:
        reference = parse_policy("lookahead")
    limit = max_deals if max_deals is not None else (40 if difficulty else 200) * holes
    chosen: list[Hole] = []
    skipped = 0
    start = 0
    while len(chosen) < holes:
        if start >= limit:
            what = f"{difficulty} (honest win chance)" if difficulty else "winnable"
            raise CourseError(f"only {len(chosen)} of the first {limit} deals of seed {seed} are "
                              f"{what} under {rules.id}" + (f" ({skipped} unresolved)" if skipped else "")
                              + f"; cannot make a {holes}-hole course")
        batch = seeded_deals(rules, seed, start, min(_BATCH, limit - start))
        keep = []
        for k, cards in enumerate(batch.cards):
            board = board_from_cards(rules, cards)
            verdict = _qualifies(board, rules, winnable, difficulty)
            if verdict is None:
                skipped += 1
                continue
            if verdict is not False:
                keep.append((k, board, verdict))
            if len(chosen) + len(keep) == holes:
                break
        if keep:
            if reference is not None:
                sub = DealBatch(start, batch.cards[[k for k, _, _ in keep]],
                                batch.keys[[k for k, _, _ in keep]])
                strokes = [float(s) for s in play_deals(rules, reference, sub)["strokes"]]
            else:
                strokes = [odds.expected_strokes for _, _, odds in keep]
            for (k, board, odds), s in zip(keep, strokes, strict=True):
                par = int(min(max(round(s), hole_par_min), hole_par_max))
                chosen.append(Hole(len(chosen) + 1, seed, start + k, par, s,
                                   True if winnable else None, format_board(board, rules),
                                   None if odds is True else odds.win_p))
        start += len(batch.cards)
    examined = chosen[-1].index + 1
    rule = ("seed = int(YYYYMMDD) of the date; holes are the seed's deals in index order"
            + (", skipping deals the exact solver cannot win" if winnable else "")
            + (f", keeping the {difficulty} ones (honest win chance in "
               f"[{DIFFICULTY_BANDS[difficulty][0]:.0%}, {min(DIFFICULTY_BANDS[difficulty][1], 1):.0%}))"
               if difficulty else ""))
    by = reference.spec if reference is not None else "optimal (expected strokes)"
    return Course(rules.id, holes, seed, date, by, winnable, difficulty, hole_par_min, hole_par_max,
                  sum(h.par for h in chosen), examined, rule, chosen)


def _qualifies(board, rules: Rules, winnable: bool, difficulty: str | None):
    """False: the deal is left out; None: unresolved (left out, counted); otherwise True,
    or the deal's honest ``Odds`` when a difficulty asks for them."""
    from golfstats.solver import solve

    if winnable and not solve(board, rules, "win").won:
        return False
    if difficulty is None:
        return True
    from golfstats.honest import odds

    value = odds(board, rules, "win")
    if not value.resolved:
        return None
    low, high = DIFFICULTY_BANDS[difficulty]
    return value if low <= value.win_p < high else False
