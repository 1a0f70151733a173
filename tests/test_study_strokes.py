"""The study's perfect golfer (goal strokes, ``study.optimum``): played out on the first
``strokes_n`` valued deals, not past its pilot when none of the pilot's tables fits, and
every valued deal its par leaves out counted and said.  The valuers are stand-ins
(``tests/valuers.py``): a real goal-strokes table costs minutes and gigabytes a deal."""

from __future__ import annotations

import polars as pl
from valuers import fake_strokes, fake_value

from golfstats.study.opening import opening_markdown
from golfstats.study.optimum import OptimumPlan, read_strokes, run_dir, run_optimum
from golfstats.study.optimum_tables import summary_rows
from golfstats.study.readme import _playouts_markdown

VARIANT = "strict"


def _run(tmp_path, monkeypatch, strokes, **plan) -> tuple:
    """The optimum of ``VARIANT`` on 10 deals (one batch) with ``strokes`` as the goal-strokes
    valuer; (its result, what it said, the goal-strokes rows the ledger holds)."""
    import golfstats.study.optimum as optimum

    monkeypatch.setattr(optimum, "value_deal", fake_value)
    monkeypatch.setattr(optimum, "strokes_deal", strokes)
    plan = OptimumPlan(VARIANT, 0, 0.3, orders=10, min_n=3, max_n=10, target=1.0, workers=1,
                       **plan)
    said = []
    result = run_optimum(plan, tmp_path, said.append)
    return result, "\n".join(said), read_strokes(run_dir(tmp_path, plan))


def _said_in_readme(result) -> str:
    summary = summary_rows([result])
    return _playouts_markdown(summary, 10) + opening_markdown(summary, pl.DataFrame(
        schema={"variant": pl.String, "policy": pl.String}))


def test_the_par_rests_on_the_first_strokes_n_valued_deals(tmp_path, monkeypatch):
    result, _, held = _run(tmp_path, monkeypatch, fake_strokes, strokes_n=4)
    assert result.rows.height == 10
    assert sorted(held["deal_index"].to_list()) == [0, 1, 2, 3]  # none beyond the first 4
    (row,) = summary_rows([result]).iter_rows(named=True)
    assert (row["strokes_goal"], row["playout_deals"], row["strokes_wanted"]) == ("strokes", 4, 4)
    assert (row["strokes_unresolved"], row["strokes_missing"]) == (0, 0)
    played = [s for i in range(4) for s in fake_strokes(VARIANT, 0, i, 10)["order_strokes"]]
    assert row["playouts"] == len(played) and row["mean_strokes"] == sum(played) / len(played)
    assert "rest on 4 valued deals of the first 4 of its 10, each" in _said_in_readme(result)


def test_every_valued_deal_without_a_cap(tmp_path, monkeypatch):
    result, _, held = _run(tmp_path, monkeypatch, fake_strokes)
    assert held.height == 10
    (row,) = summary_rows([result]).iter_rows(named=True)
    assert (row["playout_deals"], row["strokes_wanted"]) == (10, 10)
    assert "rest on 10 valued deals, each" in _said_in_readme(result)


def _over_budget(deals, need=0):
    """A goal-strokes stand-in whose table of ``deals`` never fits, said to need ``need``
    bytes (its ``peak_bytes``; the others as ``fake_strokes``), recording each budget it
    was given."""
    asked = []

    def strokes(variant, seed, index, orders, max_bytes=0):
        asked.append((index, max_bytes))
        row = fake_strokes(variant, seed, index, orders, max_bytes)
        if index in deals:
            row.update(resolved=False, expected_strokes=None, win_p=None, order_strokes=[],
                       peak_bytes=need or max_bytes)
        return row

    return strokes, asked


def test_a_table_over_budget_is_tried_again_alone_and_its_deal_said_left_out(tmp_path, monkeypatch):
    strokes, asked = _over_budget({1, 5})
    result, said, held = _run(tmp_path, monkeypatch, strokes, strokes_n=8, max_bytes=2,
                              strokes_bytes=3, alone_bytes=9)
    assert sorted(asked) == sorted([(i, 3) for i in range(8)] + [(1, 9), (5, 9)])
    assert held.height == 8 and sorted(held.filter(~pl.col("resolved"))["deal_index"]) == [1, 5]
    (row,) = summary_rows([result]).iter_rows(named=True)
    assert (row["playout_deals"], row["strokes_unresolved"], row["strokes_missing"]) == (6, 2, 0)
    text = _said_in_readme(result)
    assert ("rest on 6 valued deals of the first 8 of its 10 (2 whose goal-strokes table did not "
            "fit its memory budget left out: not a random sample of the deals, so this par may "
            "lean)") in text
    assert "(par: 6)" in text  # the opening table's cell names the par's own deals


def test_no_deal_is_played_out_past_a_pilot_none_of_whose_tables_fits(tmp_path, monkeypatch):
    strokes, asked = _over_budget(set(range(10)))
    result, said, held = _run(tmp_path, monkeypatch, strokes, strokes_pilot=3, max_bytes=2,
                              alone_bytes=9)
    assert sorted({i for i, _ in asked}) == [0, 1, 2]  # the pilot alone, at both budgets
    assert sorted(asked) == sorted([(i, b) for i in range(3) for b in (2, 9)])
    assert "the goal-strokes tables of its first 3 deals did not fit 0 GB" in said
    assert "not played out on its other 7 deals here" in said
    (row,) = summary_rows([result]).iter_rows(named=True)
    assert (row["strokes_goal"], row["strokes_unresolved"], row["strokes_missing"]) == ("win", 3, 7)
    text = _said_in_readme(result)
    assert "goal win: the goal-strokes tables of the 3 deals tried did not fit" in text
    assert "strict: none of the 3 tables tried fitted its memory budget" in text


def test_a_pilot_with_one_table_that_fits_goes_on(tmp_path, monkeypatch):
    strokes, asked = _over_budget({0, 1})
    _, said, held = _run(tmp_path, monkeypatch, strokes, strokes_pilot=3, max_bytes=2,
                         alone_bytes=9)
    assert held.height == 10 and "did not fit" not in said


def test_a_table_whose_need_exceeds_even_a_deal_alone_is_not_tried_again(tmp_path, monkeypatch):
    strokes, asked = _over_budget({1}, need=10)  # more than the 9 bytes a deal has alone
    _, _, held = _run(tmp_path, monkeypatch, strokes, strokes_n=4, max_bytes=2, alone_bytes=9)
    assert sorted(asked) == [(i, 2) for i in range(4)]
    assert held.filter(~pl.col("resolved"))["deal_index"].to_list() == [1]


def test_a_pilot_all_of_whose_needs_exceed_a_deal_alone_stops_at_once(tmp_path, monkeypatch):
    strokes, asked = _over_budget(set(range(10)), need=10)
    _, said, _ = _run(tmp_path, monkeypatch, strokes, max_bytes=2, alone_bytes=9)
    assert sorted(asked) == [(i, 2) for i in range(3)]
    assert "not played out on its other 7 deals here" in said


def test_the_perfect_golfers_par_is_held_to_the_honest_players():
    """Under the par to print: at or below each honest player's par, above within the
    noise of its deals, or above beyond it (a fault, said so); nothing for a par still
    goal win's."""
    from golfstats.study.opening import par_to_print_markdown

    def par(variant, policy, p9, low9, p18, low18, n=100):
        return {"variant": variant, "policy": policy, "n": n, "par9": p9, "par9_low": low9,
                "par9_high": p9 + 3, "p_off9": 0.5, "par18": p18, "par18_low": low18,
                "par18_high": p18 + 5, "p_off18": 0.5}

    par_df = pl.DataFrame([par("strict", "lookahead", 70, 69, 141, 140, 773_016),
                           par("strict", "sampling", 47, 45, 95, 92, 2_000),
                           par("strict", "optimal", 49, 44, 93, 85),
                           par("putt-putt", "lookahead", 16, 15, 32, 31),
                           par("putt-putt", "optimal", 20, 17, 30, 25),
                           par("queens-on-kings", "lookahead", 53, 53, 106, 106),
                           par("queens-on-kings", "optimal", 48, 40, 96, 80)])
    full = pl.DataFrame({"variant": ["queens-on-kings"], "strokes_goal": ["win"]})
    text = par_to_print_markdown(par_df, full)
    assert ("- strict: 9 holes 49 against sampling's 47: 2 above, within the noise of its deals "
            "(its interval reaches 47); 9 holes 49 against lookahead's 70: at or below; 18 holes "
            "93 against sampling's 95: at or below; 18 holes 93 against lookahead's 141: at or "
            "below.") in text
    assert ("9 holes 20 against lookahead's 16: 4 above, beyond the noise of its deals: a fault "
            "to look into") in text
    assert "- queens-on-kings:" not in text  # its par is still goal win's play-outs
