"""Tallies add, and a study interrupted and continued from its ledger alone (what a fresh
clone holds) gives the figures of an uninterrupted one.

Tallies are checked against the deal rows they summarise (numpy on the rows, and the
paired comparison of the rows themselves); the study is run at a tiny scale with chunks
of 18 deals, its optimum part valued by a stand-in (the plumbing is under test here, the
values in test_odds and test_honest_twin).
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import polars as pl
import pytest
from run_fixtures import deal_rows

from golfstats.report.compare import compare_policies, comparison_from_tally
from golfstats.rules import parse_variant
from golfstats.runs.tally import (
    TALLY_SCHEMA,
    merge_pair_tallies,
    merge_tallies,
    pair_tallies,
    summary_of,
    swapped,
    tally,
)
from golfstats.study import StudyConfig, run_study

POLICIES = ("greedy", "lookahead", "exact")


@pytest.fixture(scope="module")
def rows():
    return deal_rows(parse_variant("putt-putt"), POLICIES, 90, 5)


def test_a_tally_gives_the_rows_figures(rows):
    summary = {r["policy"]: r for r in summary_of(tally(rows)).iter_rows(named=True)}
    for policy in POLICIES:
        mine = rows.filter(pl.col("policy") == policy)
        strokes = mine["strokes"].to_numpy().astype(float)
        s = summary[policy]
        assert s["n"] == 90 and s["wins"] == int(mine["won"].sum())
        assert s["mean_strokes"] == pytest.approx(strokes.mean(), abs=1e-12)
        assert s["std_strokes"] == pytest.approx(strokes.std(ddof=1), abs=1e-12)
        assert s["median_strokes"] == float(np.median(strokes))
        assert (s["min_strokes"], s["max_strokes"]) == (strokes.min(), strokes.max())
        assert s["mean_points"] == pytest.approx(mine["points"].to_numpy().mean(), abs=1e-12)
        assert s["mean_longest_chain"] == pytest.approx(mine["longest_chain"].to_numpy().mean())
        assert sum(h["count"] for h in s["stroke_hist"]) == 90


def test_chunk_tallies_add_up_to_the_whole(rows):
    """Chunks of 18 deals: the merged tallies equal the whole's, match play included."""
    chunks = [rows.filter(pl.col("deal_index").is_between(start, start + 17)) for start in range(0, 90, 18)]
    merged, whole = merge_tallies([tally(c) for c in chunks]), tally(rows)
    floats = [c for c, t in TALLY_SCHEMA.items() if t == pl.Float64]  # added in another order
    assert merged.drop(floats).equals(whole.drop(floats))
    for column in floats:
        assert merged[column].to_list() == pytest.approx(whole[column].to_list(), rel=1e-12)
    merged = merge_pair_tallies([pair_tallies(c, POLICIES) for c in chunks])
    assert merged.sort(["a", "b"]).equals(pair_tallies(rows, POLICIES).sort(["a", "b"]))
    # and the comparison made from them is the comparison of the rows
    pair = merged.filter((pl.col("a") == "lookahead") & (pl.col("b") == "exact")).to_dicts()[0]
    (direct,) = compare_policies(rows, "exact", "lookahead")
    assert comparison_from_tally(swapped(pair)) == direct
    assert direct.matches[18].rounds == 5 and direct.matches[9].rounds == 10


def _fake_value(variant: str, seed: int, index: int, orders: int, max_bytes: int = 0) -> dict:
    share = (index * 7 % 10) / 10
    won = round(share * orders)  # a stand-in's realised strokes: it wins no order the
    strokes = [-(k % 3) if k < won // 2 else 1 + (index + k) % 8  # clairvoyant player loses
               for k in range(orders)]
    return {"deal_index": index, "win_p": share * 0.4 + index * 1e-3, "share": share,
            "resolved": True, "states": 1, "peak_bytes": 1, "seconds": 0.0,
            "order_strokes": strokes}


def _fake_strokes(variant: str, seed: int, index: int, orders: int, max_bytes: int = 0) -> dict:
    """The goal-strokes stand-in: the same realised strokes as ``_fake_value``'s."""
    return {"deal_index": index, "expected_strokes": 0.0, "win_p": 0.0, "resolved": True,
            "states": 1, "peak_bytes": 1, "max_bytes": max_bytes, "seconds": 0.0,
            "order_strokes": _fake_value(variant, seed, index, orders)["order_strokes"]}


class _Stop(BaseException):
    """The stand-in for a sitting killed mid-way (like Ctrl-C, not an error)."""


def _figures(out) -> dict[str, pl.DataFrame]:
    """What the study prints: its summary (without the seconds), paired comparisons, par."""
    return {"summary": pl.read_parquet(out / "summary.parquet").drop("cpu_seconds"),
            "compare": pl.read_csv(out / "tables" / "compare.csv"),
            "par": pl.read_csv(out / "tables" / "par.csv")}


def test_an_interrupted_study_continues_from_its_ledger(tmp_path, monkeypatch):
    import golfstats.study.ledger as ledger
    import golfstats.study.optimum as optimum
    import golfstats.study.plan as plan

    monkeypatch.setattr(plan, "CHUNK_SECONDS", 1e-9)  # chunks of 18 deals: several a run
    monkeypatch.setattr(optimum, "value_deal", _fake_value)
    monkeypatch.setattr(optimum, "strokes_deal", _fake_strokes)
    config = StudyConfig(scale=0.0005, variants=("strict", "putt-putt"), sampling_variants=("putt-putt",),
                         optimal_variants=("putt-putt",), optimal_min_n=24_000,
                         optimal_max_n=60_000, optimal_target=0.025,
                         workers=1)  # scaled: at least 12, at most 30
    whole = tmp_path / "whole"
    run_study(StudyConfig(**{**config.__dict__, "out": whole}))

    # the second study starts from the first one's plan (the committed plan.json)
    cut = tmp_path / "cut"
    (cut / "ledger").mkdir(parents=True)
    shutil.copy(whole / "ledger" / "plan.json", cut / "ledger" / "plan.json")
    written, real_write = [], ledger.write_chunk

    def dying_write(*args, **kw):
        if len(written) == 3:
            raise _Stop
        written.append(real_write(*args, **kw))

    monkeypatch.setattr(ledger, "write_chunk", dying_write)
    with pytest.raises(_Stop):
        run_study(StudyConfig(**{**config.__dict__, "out": cut}))
    monkeypatch.setattr(ledger, "write_chunk", real_write)
    calls = []

    def dying_value(*args):
        if len(calls) == 4:  # in the middle of the optimum's second batch
            raise _Stop
        calls.append(args)
        return _fake_value(*args)

    monkeypatch.setattr(optimum, "value_deal", dying_value)
    with pytest.raises(_Stop):
        run_study(StudyConfig(**{**config.__dict__, "out": cut}))
    assert len(list((cut / "ledger").glob("optimal-*/deal-*.json"))) == 4
    # a fresh clone holds only the ledger
    for path in cut.iterdir():
        if path.name != "ledger":
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    monkeypatch.setattr(optimum, "value_deal", _fake_value)
    # another --hours-budget (the command's default, say) keeps the committed plan
    run_study(StudyConfig(**{**config.__dict__, "out": cut, "hours_budget": config.hours_budget + 7}))
    a, b = _figures(whole), _figures(cut)
    for name in a:
        assert a[name].equals(b[name]), name
    optimal = a["summary"].filter(pl.col("policy") == "optimal")
    assert optimal["n"].to_list() == [20]  # whole batches
    # its strokes and par come from the play-outs: 20 deals x the orders, pooled
    played = np.concatenate([_fake_value("putt-putt", 0, i, config.optimal_orders)["order_strokes"]
                             for i in range(20)])
    assert optimal["playouts"].to_list() == [played.size] and optimal["playout_deals"].to_list() == [20]
    assert optimal["mean_strokes"][0] == pytest.approx(played.mean())
    assert optimal["playout_win_rate"][0] == pytest.approx((played <= 0).mean())
    assert a["par"].filter(pl.col("policy") == "optimal").height == 1


def test_a_plan_made_with_other_deals_is_refused_and_kept(tmp_path):
    from golfstats.study import StudyError
    from golfstats.study.ledger import write_json

    plan = tmp_path / "ledger" / "plan.json"
    plan.parent.mkdir(parents=True)
    made = StudyConfig(out=tmp_path, seed=7, variants=("strict",))
    write_json(plan, {"key": made.plan_key(), "plans": [], "runs": []})
    before = plan.read_bytes()
    with pytest.raises(StudyError, match="seed 7 .asked: 8."):
        run_study(StudyConfig(out=tmp_path, seed=8, variants=("strict",), plan_only=True))
    assert plan.read_bytes() == before


def test_a_record_run_continues_its_main_run(tmp_path, monkeypatch):
    """Golf-B's record: the clairvoyant player alone on the deals after the main run's; the
    study's exact row rests on both runs' deals and equals one simulate run over them all,
    the other players' rows on the main run's alone."""
    import golfstats.study.plan as plan
    from golfstats.policies import policies_from_names
    from golfstats.runs import load_run
    from golfstats.sim import SimConfig, run_simulation

    monkeypatch.setattr(plan, "CHUNK_SECONDS", 1e-9)  # chunks of 18 deals
    config = StudyConfig(out=tmp_path / "study", scale=0.00005, variants=("queens-on-kings",),
                         sampling_variants=(), optimal_variants=(), record_half_width=0.0005,
                         workers=1)
    result = run_study(config)
    (record,) = read_json_plan(config.out)["records"]
    assert record["base_n"] < record["n"]
    summary = pl.read_parquet(config.out / "summary.parquet")
    rows = {r["policy"]: r for r in summary.iter_rows(named=True)}
    assert rows["exact"]["n"] == record["n"] and rows["greedy"]["n"] == record["base_n"]
    direct = load_run(run_simulation(SimConfig(
        rules=parse_variant("queens-on-kings"), policies=policies_from_names(("exact",)),
        n=record["n"], seed=config.seed, workers=1, out=tmp_path / "direct"))).summary.row(0, named=True)
    assert (rows["exact"]["wins"], rows["exact"]["stroke_hist"]) == (direct["wins"], direct["stroke_hist"])
    # the record run is folded into the main run's tallies, not listed as a run of its own
    assert [t.run.name for t in result.tallies] == [f"queens-on-kings-n{record['base_n']}-s{config.seed}"]
    # --no-play: the outputs from what the ledger holds; a chunk missing is not played
    folder = config.out / "ledger" / f"queens-on-kings-exact-n{record['n']}-s{config.seed}"
    chunks = sorted(folder.glob("chunk-*.json"))
    gone = json.loads(chunks[-1].read_text())
    chunks[-1].unlink()
    run_study(StudyConfig(**{**config.__dict__, "play": False}))
    assert len(list(folder.glob("chunk-*.json"))) == len(chunks) - 1
    exact = pl.read_parquet(config.out / "summary.parquet").filter(pl.col("policy") == "exact")
    start, stop = gone["chunk"][1:]
    assert exact["n"].to_list() == [record["n"] - (stop - start)]


def read_json_plan(out):
    return json.loads((out / "ledger" / "plan.json").read_text())


# ------------------------------------------------------------------ records checked (issue 38)

@pytest.fixture(scope="module")
def small_study(tmp_path_factory):
    """A study of strict alone, in chunks of 18 deals, without its optimum."""
    import golfstats.study.plan as plan

    real = plan.CHUNK_SECONDS
    plan.CHUNK_SECONDS = 1e-9
    try:
        config = StudyConfig(out=tmp_path_factory.mktemp("small") / "study", scale=0.0002,
                             variants=("strict",), sampling_variants=(), optimal_variants=(),
                             record_variants=(), workers=1, progress=False)
        run_study(config)
    finally:
        plan.CHUNK_SECONDS = real
    return config


def _copy_study(config, to):
    shutil.copytree(config.out, to)
    return StudyConfig(**{**config.__dict__, "out": to})


def _unsealed(path, change=lambda data: None):
    """The record as the study wrote it before digests, after ``change``."""
    from golfstats.study.ledger import dumps

    data = json.loads(path.read_text())
    del data["digest"]
    change(data)
    path.write_text(dumps(data))


def test_every_record_carries_its_digest(small_study):
    from golfstats.study.records import digest_of

    records = list((small_study.out / "ledger").rglob("*.json"))
    assert len(records) > 3
    for path in records:
        data = json.loads(path.read_text())
        assert data["digest"] == digest_of(data), path


def test_a_record_that_cannot_be_believed_is_set_aside_said_and_played_again(small_study, tmp_path,
                                                                             monkeypatch):
    import golfstats.study.plan as plan

    monkeypatch.setattr(plan, "CHUNK_SECONDS", 1e-9)
    config = _copy_study(small_study, tmp_path / "study")
    (run,) = [p for p in (config.out / "ledger").iterdir() if p.is_dir()]
    chunks = sorted(run.glob("chunk-*.json"))
    assert len(chunks) >= 4

    def all_wins(data):
        row = next(r for r in data["tally"] if r["policy"] == "greedy")
        row["wins"] = row["n"]  # a win rate of 100%, the histogram unchanged

    text = chunks[0].read_text()  # sealed, its wins edited: altered
    chunks[0].write_text(text.replace('"wins":', '"wins":1', 1))
    chunks[1].write_text(chunks[1].read_text()[:200])  # cut short
    _unsealed(chunks[2], lambda data: data.pop("tally"))  # no tally key (an old record)
    _unsealed(chunks[3], all_wins)  # an old record, inconsistent
    lines = []
    run_study(config, note=lines.append)
    said = [line for line in lines if line.startswith("ledger: ")]
    assert len(said) == 4, said
    for path, why in zip(chunks[:4], ("is altered: its digest", "is not whole JSON", "lacks its tally key",
                                  "wins"), strict=True):
        (line,) = [s for s in said if str(path) in s]
        assert why in line and "set aside as" in line and "played again" in line, line
    aside = sorted((config.out / "runs" / "set-aside" / run.name).glob("chunk-*.json.*"))
    assert len(aside) == 4  # moved, never deleted
    assert all(p.is_file() for p in chunks)  # played again
    a, b = _figures(small_study.out), _figures(config.out)
    for name in a:
        assert a[name].equals(b[name]), name


def test_the_plan_and_a_valued_deal_are_checked_too(tmp_path):
    from golfstats.study.ledger import read_plan, read_valued, write_json
    from golfstats.study.records import report_to

    ledger = tmp_path / "ledger"
    write_json(ledger / "plan.json", {"key": {"seed": 1}, "plans": [], "runs": []})
    folder = ledger / "optimal-strict-s1-k4"
    row = {"deal_index": 0, "win_p": 0.25, "share": 0.5, "resolved": True, "states": 9,
           "peak_bytes": 100, "seconds": 0.1, "order_strokes": [-1, 3, 4, 5]}
    for i in range(3):
        write_json(folder / f"deal-{i:06d}.json", {**row, "deal_index": i})
    lines = []
    report_to(lines.append)
    try:
        assert read_plan(ledger)["key"] == {"seed": 1} and len(read_valued(folder)) == 3
        text = (ledger / "plan.json").read_text()
        (ledger / "plan.json").write_text(text.replace('"seed":1', '"seed":2'))
        deal = folder / "deal-000001.json"
        deal.write_text(deal.read_text().replace('"win_p":0.25', '"win_p":0.95'))
        _unsealed(folder / "deal-000002.json", lambda d: d.update(order_strokes=[-1, -2, 0, 4]))
        assert read_plan(ledger) is None  # the study plans anew (its pilots are reused)
        assert [d["deal_index"] for d in read_valued(folder)] == [0]  # 1 and 2 valued again
    finally:
        report_to(None)
    assert len(lines) == 3 and all("set aside as" in line for line in lines), lines
    assert "wins more orders honestly than the clairvoyant player" in lines[2]


def test_a_valued_deals_goal_strokes_play_outs_are_checked(tmp_path):
    """strokes-NNNNNN.json (the perfect golfer's play-outs) is a ledger record like the
    others: altered or inconsistent, it is set aside and said (so it is played out again);
    sealed by the migration."""
    from golfstats.study.ledger import seal, write_json
    from golfstats.study.optimum_deals import STROKES_FORMAT, read_strokes
    from golfstats.study.records import report_to

    folder = tmp_path / "ledger" / "optimal-strict-s1-k4"
    row = {"format": STROKES_FORMAT, "goal": "strokes", "deal_index": 0, "expected_strokes": 2.5,
           "win_p": 0.25, "resolved": True, "states": 9, "peak_bytes": 100, "max_bytes": 0,
           "seconds": 0.1, "order_strokes": [-1, 3, 4, 5]}
    for i in range(4):
        write_json(folder / f"strokes-{i:06d}.json", {**row, "deal_index": i})
    lines = []
    report_to(lines.append)
    try:
        assert read_strokes(folder)["deal_index"].to_list() == [0, 1, 2, 3]
        path = folder / "strokes-000001.json"
        path.write_text(path.read_text().replace('"expected_strokes":2.5', '"expected_strokes":-9.5'))
        write_json(folder / "strokes-000002.json", {**row, "deal_index": 7})
        write_json(folder / "strokes-000003.json", {**row, "deal_index": 3, "order_strokes": [1, 2]})
        assert read_strokes(folder)["deal_index"].to_list() == [0]
        _unsealed(folder / "strokes-000000.json")
        assert seal(tmp_path / "ledger") == (1, 0, 0)
    finally:
        report_to(None)
    assert len(lines) == 3 and all("set aside as" in line for line in lines), lines
    assert "its digest is not its content's" in lines[0]
    assert "is of deal 7, not 2" in lines[1] and "has 2 play-outs, not one per order (4)" in lines[2]


def test_old_records_are_used_said_and_sealed_by_the_migration(small_study, tmp_path, monkeypatch):
    from test_errors import invoke

    import golfstats.study.plan as plan

    monkeypatch.setattr(plan, "CHUNK_SECONDS", 1e-9)  # the plan's chunks of 18 deals
    config = _copy_study(small_study, tmp_path / "study")
    ledger = config.out / "ledger"
    records = sorted(ledger.rglob("*.json"))
    for path in records:
        _unsealed(path)  # the committed ledger before digests
    lines = []
    run_study(StudyConfig(**{**config.__dict__, "play": False}), note=lines.append)
    notes = [line for line in lines if "have no digest" in line]
    assert len(notes) == 1 and "--seal-ledger" in notes[0], lines
    a, b = _figures(small_study.out), _figures(config.out)
    for name in a:
        assert a[name].equals(b[name]), name
    inconsistent = records[-1]
    _unsealed_text = inconsistent.read_text()
    inconsistent.write_text(_unsealed_text.replace('"wins":', '"wins":7', 1))
    old = sum("digest" not in json.loads(p.read_text()) for p in records)  # the study may
    code, out, err = invoke(["study", "--out", str(config.out), "--seal-ledger"])  # seal its plan
    assert code == 1 and err.count("\n") == 1 and str(inconsistent) in err, err
    assert f"{old - 1:,} records sealed, {len(records) - old:,} already sealed, 1 left unsealed" in out
    assert str(inconsistent) in out
    inconsistent.write_text(_unsealed_text)
    code, out, _ = invoke(["study", "--out", str(config.out), "--seal-ledger"])
    assert code == 0 and f"1 records sealed, {len(records) - 1:,} already sealed, 0 left" in out
    assert all("digest" in json.loads(p.read_text()) for p in records)
    lines.clear()
    run_study(StudyConfig(**{**config.__dict__, "play": False}), note=lines.append)
    assert not [line for line in lines if line.startswith("ledger: ")]


def test_a_second_study_on_one_ledger_is_refused_naming_the_first(small_study, tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    from test_errors import invoke

    config = _copy_study(small_study, tmp_path / "study")
    script = ("import time\nfrom golfstats.locks import hold\n"
              f"with hold({str(config.out / 'ledger')!r}):\n    print('held', flush=True)\n"
              "    time.sleep(600)\n")
    env = {**__import__("os").environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    holder = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        code, _, err = invoke(["study", "--out", str(config.out), "--variants", "strict",
                               "--scale", "0.0002", "--optimal", "none", "--no-play", "-q"])
        assert code == 1 and err.count("\n") == 1, err
        assert f"ledger {config.out / 'ledger'} is being written by pid {holder.pid}" in err
    finally:
        holder.kill()
        holder.wait()
