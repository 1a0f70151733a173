"""``golfstats course --difficulty``: deals kept by their band of honest win chance.

The honest value of a whole deal takes seconds to minutes (docs/honest-play.md), too slow
for CI; here the selection rule is checked with ``golfstats.honest.odds`` replaced by a
stand-in that gives each deal a known value, so the test can tell exactly which deals a
band must keep, which an unresolved deal must skip, and what par each hole must get.
"""

from __future__ import annotations

import math

import pytest
from typer.testing import CliRunner

import golfstats.honest
from golfstats.cli import app
from golfstats.deals import seeded_deals
from golfstats.honest import Odds
from golfstats.report.course import CourseError, make_course
from golfstats.rules import parse_variant

RULES = parse_variant("putt-putt")
SEED = 11
#: The stand-in's win chance and expected strokes of deal i (cycling through every band,
#: a zero and an unresolved deal).
WIN_P = [0.9, 0.35, 0.05, 0.0, None, 0.5, 0.2, 0.1999]


def _value(i: int) -> Odds:
    p = WIN_P[i % len(WIN_P)]
    if p is None:
        return Odds(math.nan, math.nan, False, 10**6, 0.0)
    return Odds(p, 2.4 + (i % 5), True, 100, 0.0)


@pytest.fixture
def known_odds(monkeypatch):
    """Replace the honest odds by ``_value`` of the deal's index (found from its cards)."""
    from golfstats.board import format_board
    from golfstats.deals import board_from_cards

    batch = seeded_deals(RULES, SEED, 0, 200)
    index = {format_board(board_from_cards(RULES, c), RULES): i for i, c in enumerate(batch.cards)}
    calls = []

    def odds(board, rules, goal="win", max_states=None):
        i = index[format_board(board, rules)]
        calls.append(i)
        return _value(i)

    monkeypatch.setattr(golfstats.honest, "odds", odds)
    return calls


#: The bands as documented (README, ``golfstats course --help``), written out here so the
#: test holds the code to the documentation rather than to itself.
DOCUMENTED = {"easy": lambda p: p >= 0.5, "medium": lambda p: 0.2 <= p < 0.5,
              "hard": lambda p: 0.0 < p < 0.2}


def _expected(band: str, holes: int) -> list[int]:
    out = []
    i = 0
    while len(out) < holes:
        p = WIN_P[i % len(WIN_P)]
        if p is not None and DOCUMENTED[band](p):
            out.append(i)
        i += 1
    return out


@pytest.mark.parametrize("band", ["easy", "medium", "hard"])
def test_difficulty_keeps_the_band_and_pars_by_expected_strokes(known_odds, band):
    course = make_course(RULES, 9, SEED, difficulty=band)
    assert [h.index for h in course.hole_list] == _expected(band, 9)
    for hole in course.hole_list:
        value = _value(hole.index)
        assert hole.win_p == value.win_p
        assert hole.par == min(max(round(value.expected_strokes), 3), 5)
    assert course.par == sum(h.par for h in course.hole_list)
    assert course.policy == "optimal (expected strokes)"


def test_an_unresolved_deal_is_skipped_and_counted(known_odds):
    with pytest.raises(CourseError, match=r"\(2 unresolved\)"):
        make_course(RULES, 9, SEED, difficulty="medium", max_deals=16)


def test_a_named_reference_policy_sets_par_instead(known_odds):
    from golfstats.policies import parse_policy, play_deals

    course = make_course(RULES, 9, SEED, difficulty="easy", policy="greedy")
    batch = seeded_deals(RULES, SEED, 0, 200)
    strokes = play_deals(RULES, parse_policy("greedy"), batch)["strokes"]
    want = [min(max(int(strokes[h.index]), 3), 5) for h in course.hole_list]
    assert [h.par for h in course.hole_list] == want


def test_stockless_games_refuse_a_difficulty():
    with pytest.raises(CourseError, match="hides nothing"):
        make_course(parse_variant("black-hole"), 9, SEED, difficulty="easy")


def test_course_command_difficulty(known_odds):
    result = CliRunner().invoke(app, ["course", "--variant", "putt-putt", "--seed", str(SEED),
                                      "--difficulty", "hard", "--json"])
    assert result.exit_code == 0, result.stdout
    assert '"difficulty": "hard"' in result.stdout
    bad = CliRunner().invoke(app, ["course", "--difficulty", "extreme"])
    assert bad.exit_code == 2
