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
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import asdict, dataclass, field

from golfstats.policies import Policy, parse_policy
from golfstats.rules import Rules

#: Deals examined per batch while looking for winnable ones.
_BATCH = 32


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
    reference_strokes: int
    winnable: bool | None  # None when not checked
    board: str


@dataclass(frozen=True)
class Course:
    variant: str
    holes: int
    seed: int
    date: str | None
    policy: str
    winnable_only: bool
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
        lines = [f"# {self.variant}: {self.holes}-hole course, {when}seed {self.seed}, par {self.par}",
                 f"# hole par = {self.policy}'s strokes on the deal, clamped to "
                 f"{self.hole_par_min}..{self.hole_par_max}"
                 + ("; only deals the exact solver wins" if self.winnable_only else ""), ""]
        for hole in self.hole_list:
            lines.append(f"# hole {hole.number}: par {hole.par} (seed {hole.seed}, index {hole.index})")
            lines.append(hole.board.rstrip("\n"))
            lines.append("")
        return "\n".join(lines)


def make_course(rules: Rules, holes: int, seed: int, *, date: str | None = None, winnable: bool = False,
                policy: Policy | str = "lookahead", hole_par_min: int = 3, hole_par_max: int = 5,
                max_deals: int | None = None) -> Course:
    """The course of ``holes`` holes from ``seed`` (see the module doc for the rules).

    ``max_deals`` bounds the deals examined when ``winnable`` (default 200 per hole);
    ``CourseError`` if too few of them are winnable.
    """
    from golfstats.board import format_board
    from golfstats.deals import board_from_cards, seeded_deals
    from golfstats.policies import play_deals
    from golfstats.solver import solve

    if holes not in (9, 18):
        raise CourseError(f"a course has 9 or 18 holes, not {holes}")
    if hole_par_min > hole_par_max:
        raise CourseError(f"hole par minimum {hole_par_min} is above the maximum {hole_par_max}")
    policy = parse_policy(policy) if isinstance(policy, str) else policy
    limit = max_deals if max_deals is not None else 200 * holes
    chosen: list[Hole] = []
    start = 0
    while len(chosen) < holes:
        if start >= limit:
            raise CourseError(f"only {len(chosen)} of the first {limit} deals of seed {seed} are "
                              f"winnable under {rules.id}; cannot make a {holes}-hole course")
        batch = seeded_deals(rules, seed, start, min(_BATCH, limit - start))
        keep = []
        for k, cards in enumerate(batch.cards):
            board = board_from_cards(rules, cards)
            if winnable and not solve(board, rules, "win").won:
                continue
            keep.append((k, board))
            if len(chosen) + len(keep) == holes:
                break
        if keep:
            from golfstats.deals import DealBatch

            sub = DealBatch(start, batch.cards[[k for k, _ in keep]], batch.keys[[k for k, _ in keep]])
            strokes = play_deals(rules, policy, sub)["strokes"]
            for (k, board), s in zip(keep, strokes, strict=True):
                par = int(min(max(int(s), hole_par_min), hole_par_max))
                chosen.append(Hole(len(chosen) + 1, seed, start + k, par, int(s),
                                   True if winnable else None, format_board(board, rules)))
        start += len(batch.cards)
    examined = chosen[-1].index + 1
    rule = ("seed = int(YYYYMMDD) of the date; holes are the seed's deals in index order"
            + (", skipping deals the exact solver cannot win" if winnable else ""))
    return Course(rules.id, holes, seed, date, policy.spec, winnable, hole_par_min, hole_par_max,
                  sum(h.par for h in chosen), examined, rule, chosen)
