"""``golfstats study --variants RULES``: any rule set, house rules included, gets its full
ladder (random, greedy, lookahead, exact, sampling and the perfect player ``optimal``
with its par); a stockless one is said in one line; the plan's additive settings extend
the committed plan; the optimum's estimate of what is left; the README's opening and
Golf-B's published figures.

The unmarked study runs at a tiny scale with the optimum's deals valued by stand-ins (the
plumbing is under test; the values are test_odds', test_honest_twin's and
test_play_orders'); the slow one values them for real.
"""

from __future__ import annotations

import json

import polars as pl
import pytest
from typer.testing import CliRunner
from valuers import fake_strokes, fake_value

from golfstats.cli import app
from golfstats.study import StudyConfig, run_study
from golfstats.study.plan import ADDITIVE, hidden_stock, optimal_deals_needed

HOUSE = "putt-putt+jokers1+when-stuck"


def _house_study(out, monkeypatch, sampling: bool) -> str:
    """The house rule's study at a tiny scale, the optimum's deals valued by stand-ins: the
    command itself (with sampling, slow) or ``run_study`` without sampling; its output."""
    import golfstats.study.optimum as optimum

    monkeypatch.setattr(optimum, "value_deal", fake_value)
    monkeypatch.setattr(optimum, "strokes_deal", fake_strokes)
    if sampling:
        got = CliRunner().invoke(app, ["study", "--variants", HOUSE, "--scale", "0.0005",
                                       "--workers", "1", "--quiet", "--out", str(out)])
        assert got.exit_code == 0, got.output
        return got.output
    lines = []
    run_study(StudyConfig(out=out, scale=0.0005, variants=(HOUSE,), sampling_variants=(),
                          optimal_variants=(HOUSE,), workers=1), note=lines.append)
    return "\n".join(lines)


@pytest.mark.slow
def test_the_command_gives_a_house_rule_its_full_ladder(tmp_path, monkeypatch):
    out = tmp_path / "house"
    said = _house_study(out, monkeypatch, sampling=True)
    summary = pl.read_parquet(out / "summary.parquet")
    assert set(summary["policy"]) == {"random", "greedy", "lookahead", "exact", "sampling", "optimal"}
    _check_the_perfect_player(out, said)


def test_a_house_rule_gets_the_perfect_player_and_its_par(tmp_path, monkeypatch):
    out = tmp_path / "house"
    said = _house_study(out, monkeypatch, sampling=False)
    summary = pl.read_parquet(out / "summary.parquet")
    assert set(summary["policy"]) == {"random", "greedy", "lookahead", "exact", "optimal"}
    _check_the_perfect_player(out, said)


def _check_the_perfect_player(out, said: str) -> None:
    summary = pl.read_parquet(out / "summary.parquet")
    assert set(summary["variant"]) == {HOUSE}
    optimal = summary.filter(pl.col("policy") == "optimal").row(0, named=True)
    assert optimal["n"] == 3 and optimal["strokes_goal"] == "strokes"  # the scaled minimum
    # its strokes are the goal-strokes play-outs, kept beside each valued deal
    folder = out / "ledger" / "optimal-putt-putt+jokers1+when-stuck-s2026-k100"
    strokes = sorted(folder.glob("strokes-*.json"))
    assert len(strokes) == optimal["n"] == len(list(folder.glob("deal-*.json")))
    record = json.loads(strokes[0].read_text())
    assert record["format"] == 1 and record["goal"] == "strokes"
    played = [s for i in range(optimal["n"]) for s in fake_strokes(HOUSE, 0, i, 100)["order_strokes"]]
    assert optimal["playouts"] == len(played)
    assert optimal["mean_strokes"] == pytest.approx(sum(played) / len(played))
    par = pl.read_csv(out / "tables" / "par.csv").filter(pl.col("policy") == "optimal")
    assert par.height == 1
    readme = (out / "README.md").read_text()
    opening = readme.split("**The par to print**")[0]
    row = next(line for line in opening.splitlines() if line.startswith(f"| {HOUSE} |"))
    players = set(summary["policy"]) - {"random"}
    assert row.count("·") == 2 * len(players)  # each player: rate · par · deals
    assert f"{par['par9'][0]} / {par['par18'][0]} · {optimal['n']}" in row
    assert "goal `strokes`" in opening and "goal `win`" in opening
    assert f"optimal {HOUSE}: deal 2 valued" in said  # progress, deal by deal
    assert f"optimal {HOUSE}: goal strokes, deal 2 done" in said


def test_a_stockless_rule_set_is_said_in_one_line(tmp_path):
    config = StudyConfig(out=tmp_path, scale=0.0005, variants=("black-hole",), sampling_variants=(),
                         optimal_variants=("black-hole",), workers=1, plan_only=True)
    lines = []
    run_study(config, note=lines.append)
    said = [line for line in lines if "optimal on black-hole" in line]
    assert len(said) == 1 and "optimal = exact" in said[0]
    assert not hidden_stock("all-in-a-row") and hidden_stock(HOUSE)


def test_the_new_editions_settings_extend_a_kept_plan(tmp_path):
    """A plan made before the optimum's settings were part of it (the committed one) is
    kept and extended by them: sampling and optimal on more rule sets, tighter targets."""
    from golfstats.study.ledger import read_json, write_json

    old = StudyConfig(out=tmp_path, scale=0.0005, variants=("strict",), sampling_variants=(),
                      optimal_variants=(), workers=1, plan_only=True)
    run_study(old)
    plan = tmp_path / "ledger" / "plan.json"
    kept = read_json(plan)
    for key in ("optimal_variants", "optimal_target", "optimal_other_target"):
        assert key in ADDITIVE
        kept["key"].pop(key)
    write_json(plan, kept)
    new = StudyConfig(**{**old.__dict__, "sampling_variants": ("strict",), "optimal_variants": ("strict",),
                         "optimal_target": 0.005})
    lines = []
    run_study(new, note=lines.append)
    again = read_json(plan)
    assert again["plans"] == kept["plans"]  # the main runs' sizes unchanged
    assert any(r["name"].startswith("strict-sampling-") for r in again["runs"])
    assert again["key"]["optimal_variants"] == ["strict"]
    assert any("optimal on strict (+/-0.5 points)" in line and "one-core hours" in line
               for line in lines)


def test_the_deals_the_optimum_will_need():
    assert optimal_deals_needed(0, None, 0.01, 40, 1000) == 40
    assert optimal_deals_needed(40, 0.0205, 0.01, 40, 1000) == 170  # 40 x 2.05^2, whole batches
    assert optimal_deals_needed(70, 0.009, 0.01, 40, 1000) == 70  # met
    assert optimal_deals_needed(50, 0.05, 0.01, 40, 300) == 300  # capped


def test_golf_b_cites_solvitaire_and_wolter_with_their_intervals_and_z():
    from golfstats.stats import Z95
    from golfstats.study.readme import PUBLISHED, _published_markdown

    golf_b = [p for p in PUBLISHED if p.variant == "queens-on-kings"]
    assert [p.deals for p in golf_b] == [10_000_000, 100_000]
    assert golf_b[0].interval() == pytest.approx((0.45077, 0.45141))
    assert golf_b[1].interval()[0] == pytest.approx(0.4477, abs=1e-4)
    ours = pl.DataFrame({"variant": ["queens-on-kings", "strict"], "policy": ["exact", "exact"],
                         "win_rate": [0.4515, 0.2626], "ci_low": [0.4512, 0.2616],
                         "ci_high": [0.4518, 0.2636], "n": [10_574_456, 773_016]})
    table = _published_markdown(ours)
    row = next(line for line in table.splitlines() if "Solvitaire" in line and "queens" in line)
    z = (0.4515 - 0.45109) / ((0.0003 / Z95) ** 2 + (0.00032 / Z95) ** 2) ** 0.5
    assert f"{z:+.1f}" in row
    assert "no published figure we know of is tighter than our +/-0.10%" in table
    assert "45 %" not in table and "45% if Queens" not in table


def test_a_deal_valued_inconsistently_ends_the_study_in_one_line(tmp_path, monkeypatch):
    """A valuer whose record the ledger's check would set aside is refused as it is written
    (else the study would value the deal again without end) and nothing is written."""
    import golfstats.study.optimum as optimum
    from golfstats.study.run import StudyError

    def wins_too_much(variant, seed, index, orders, max_bytes=0):
        return {**fake_value(variant, seed, index, orders), "share": 0.0}

    monkeypatch.setattr(optimum, "value_deal", wins_too_much)
    monkeypatch.setattr(optimum, "strokes_deal", fake_strokes)
    config = StudyConfig(out=tmp_path, scale=0.0005, variants=("strict",), sampling_variants=(),
                         optimal_variants=("strict",), workers=1)
    with pytest.raises(StudyError, match="deal 1 as just valued wins more orders honestly") as failure:
        run_study(config)
    assert "\n" not in str(failure.value)
    written = [p.name for p in (tmp_path / "ledger").glob("optimal-*/deal-*.json")]
    assert written == ["deal-000000.json"], written  # deal 0 wins no order: consistent
