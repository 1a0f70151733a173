"""``golfstats course --difficulty`` and ``--min-win/--max-win``: deals kept by their band of
honest win chance.

The honest value of a whole deal takes seconds to minutes (docs/honest-play.md), too slow
for CI; here the selection rule is checked with ``golfstats.honest.odds`` replaced by a
stand-in that gives each deal a known chance, so the test can tell exactly which deals a
band must keep, which an unresolved deal must skip, and when the search must give up.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from typer.testing import CliRunner

import golfstats.honest
from golfstats.cli import app
from golfstats.course import CourseError, CourseShort, DealSearch, ParSettings, band_for, make_course
from golfstats.deals import seeded_deals
from golfstats.goals import Goal
from golfstats.honest import Odds, Stats, Value
from golfstats.rules import parse_variant

RULES = parse_variant("putt-putt")
SEED = 11
#: The stand-in's win chance of deal i (cycling through every band, a zero and an
#: unresolved deal).
WIN_P = [0.95, 0.35, 0.05, 0.0, None, 0.5, 0.8, 0.1999, 0.75]
#: The difficulty thirds as documented (README, ``golfstats course --help``), written out
#: here so the test holds the code to the documentation rather than to itself.
DOCUMENTED = {"putt-putt": (0.73, 0.90), "strict": (0.04, 0.14), "queens-on-kings": (0.12, 0.30)}


def _value(i: int) -> Odds:
    p = WIN_P[i % len(WIN_P)]
    if p is None:
        return Odds(Goal.WIN, Value.unresolved(), (), Stats(10**6, 0.0))
    return Odds(Goal.WIN, Value(p, math.nan), (), Stats(100, 0.0))


@pytest.fixture
def known_odds(monkeypatch):
    """Replace the honest odds by ``_value`` of the deal's index (found from its cards)."""
    from golfstats.board import format_board
    from golfstats.deals import board_from_cards

    batch = seeded_deals(RULES, SEED, 0, 400)
    index = {format_board(board_from_cards(RULES, c), RULES): i for i, c in enumerate(batch.cards)}
    calls = []

    def odds(board, rules, goal=Goal.WIN_STROKES, **_):
        assert Goal(goal) is Goal.WIN  # a band needs the chance of winning alone
        i = index[format_board(board, rules)]
        calls.append(i)
        return _value(i)

    monkeypatch.setattr(golfstats.honest, "odds", odds)
    return calls


def _expected(keep, holes: int) -> list[int]:
    out, i = [], 0
    while len(out) < holes:
        p = WIN_P[i % len(WIN_P)]
        if p is not None and keep(p):
            out.append(i)
        i += 1
    return out


@pytest.mark.parametrize("band", ["easy", "medium", "hard"])
def test_difficulty_keeps_its_third(known_odds, band):
    low, high = DOCUMENTED["putt-putt"]
    keep = {"hard": lambda p: 0 < p < low, "medium": lambda p: low <= p < high,
            "easy": lambda p: p >= high}[band]
    course = make_course(RULES, 9, SEED, search=DealSearch(band_for(RULES, band), max_deals=400))
    assert [h.index for h in course.hole_list] == _expected(keep, 9)
    for hole in course.hole_list:
        assert hole.win_p == _value(hole.index).value.p
    assert course.difficulty == band


def test_explicit_bounds_and_the_documented_thirds():
    for variant, cuts in DOCUMENTED.items():
        rules = parse_variant(variant)
        assert (band_for(rules, "medium").low, band_for(rules, "medium").high) == cuts
        assert band_for(rules, "hard").high == cuts[0] and band_for(rules, "easy").low == cuts[1]
    chosen = band_for(RULES, min_win=0.3, max_win=0.6)
    assert chosen.holds(0.3) and chosen.holds(0.59) and not chosen.holds(0.6)
    assert not band_for(RULES, min_win=None, max_win=0.2).holds(0.0)  # p = 0 is never kept
    with pytest.raises(CourseError, match="no difficulty bands are measured"):
        band_for(parse_variant("strict+jokers2"), "easy")
    with pytest.raises(CourseError, match="not both"):
        band_for(RULES, "easy", min_win=0.5)
    with pytest.raises(CourseError, match="empty"):
        band_for(RULES, min_win=0.6, max_win=0.5)


def test_pars_come_from_the_reference_player(known_odds):
    """A hole's expectation is the reference player's mean strokes over the deal's stock
    orders (``course_par.stock_orders``), and the pars round them to the course's par."""
    from golfstats.course_par import hole_pars, stock_orders
    from golfstats.deals import DealBatch, board_from_cards
    from golfstats.policies import parse_policy, play_deals

    batch = seeded_deals(RULES, SEED, 0, 200)
    stock = len(board_from_cards(RULES, batch.cards[0]).stock)
    for policy in (None, "greedy"):
        course = make_course(RULES, 9, SEED, par=ParSettings(policy, 12),
                             search=DealSearch(band_for(RULES, min_win=0.3)))
        for hole in course.hole_list:
            cards, keys = stock_orders(batch.cards[hole.index], stock, SEED, hole.index, 12)
            strokes = play_deals(RULES, parse_policy(policy or "lookahead"), DealBatch(0, cards, keys))
            assert hole.expected_strokes == pytest.approx(float(np.mean(strokes["strokes"])))
        expected = [h.expected_strokes for h in course.hole_list]
        assert [h.par for h in course.hole_list] == hole_pars(expected).tolist()
        assert course.policy == (policy or "lookahead") and course.orders == 12


def test_an_unresolved_deal_is_skipped_and_counted(known_odds):
    with pytest.raises(CourseShort, match=r"; 2 deals unresolved, left out; no course"):
        make_course(RULES, 9, SEED, search=DealSearch(band_for(RULES, "medium"), max_deals=18))


def test_a_rare_band_stops_early_with_its_rate(known_odds):
    """A band one deal in nine meets would need 81 deals for 9 holes: with a limit of 60
    the search stops as soon as its rate says so (after 30 deals), naming the rate."""
    with pytest.raises(CourseShort, match=r"of the first 30 deals .* cannot fill") as info:
        make_course(RULES, 9, SEED, search=DealSearch(band_for(RULES, min_win=0.9), max_deals=60))
    assert len(known_odds) == 30
    assert str(info.value).endswith("no course: 4 of 9 holes found (deals 0, 9, 18, 27)")


def test_the_time_limit_stops_the_search_and_says_how_far_it_got(known_odds):
    with pytest.raises(CourseShort, match=r"stopped at the time limit after .* before the first "
                                          r"deal was valued on 1 worker") as info:
        make_course(RULES, 18, SEED, search=DealSearch(band_for(RULES, min_win=0.3), time_limit=1e-9))
    message = str(info.value)
    assert message.count("(") == message.count(")") and message.count("[") == message.count("]")
    assert message.endswith("none of its 18 holes found")


def test_the_time_limit_after_some_deals_estimates_what_would_finish(known_odds, monkeypatch):
    import golfstats.course_search as search

    clock = iter(range(0, 10**6, 7))  # seconds: each reading of the clock 7 s later
    monkeypatch.setattr(search.time, "monotonic", lambda: float(next(clock)))
    import golfstats.course as course_module

    monkeypatch.setattr(course_module.time, "monotonic", search.time.monotonic)
    with pytest.raises(CourseShort, match=r"stopped at the time limit after .*: \d+ of the first "
                                          r"\d+ deals are chosen .*; about \d+ more deals") as info:
        make_course(RULES, 18, SEED, search=DealSearch(band_for(RULES, min_win=0.3), time_limit=60))
    assert "holes found (deals 0, " in str(info.value)


@pytest.mark.slow
def test_the_time_limit_stops_a_pool_valuing_real_deals():
    """Real strict deals on two workers: the wait for a verdict ends at the deadline."""
    strict = parse_variant("strict")
    with pytest.raises(CourseShort, match="stopped at the time limit"):
        make_course(strict, 9, 9, search=DealSearch(band_for(strict, "medium"), workers=2,
                                                   time_limit=5))


def test_a_course_short_of_holes_exits_1_and_says_how_far_it_got(known_odds, capsys,
                                                                 monkeypatch):
    """Running out (here: a band no deal meets) is no usage error: exit 1, one line that
    says how far the search got."""
    import sys

    from golfstats.cli import main

    monkeypatch.setattr(sys, "argv", ["golfstats", "course", "--variant", "putt-putt", "--seed",
                                      str(SEED), "--min-win", "0.96", "--workers", "1"])
    with pytest.raises(SystemExit) as info:
        main()
    err = capsys.readouterr().err.strip().splitlines()
    assert info.value.code == 1 and len(err) == 1
    assert err[0].startswith("golfstats: error: putt-putt, seed 11: only 0 of the first 30 deals")
    assert err[0].endswith("no course: none of its 9 holes found")


def test_stockless_games_refuse_a_band():
    with pytest.raises(CourseError, match="hides nothing"):
        band_for(parse_variant("black-hole"), "easy")


def test_course_command_bands(known_odds):
    result = CliRunner().invoke(app, ["course", "--variant", "putt-putt", "--seed", str(SEED),
                                      "--difficulty", "hard", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.stdout
    assert '"difficulty": "hard"' in result.stdout
    chosen = CliRunner().invoke(app, ["course", "--variant", "putt-putt", "--seed", str(SEED),
                                      "--min-win", "0.3", "--max-win", "0.6", "--workers", "1"])
    assert chosen.exit_code == 0, chosen.stdout
    assert "chosen (honest win chance 30% to under 60%)" in chosen.stdout
    bad = CliRunner().invoke(app, ["course", "--difficulty", "extreme"])
    assert bad.exit_code == 2
    clash = CliRunner().invoke(app, ["course", "--difficulty", "easy", "--min-win", "0.2"])
    assert clash.exit_code == 2 and "not both" in clash.output
