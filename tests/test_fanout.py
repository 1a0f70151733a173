"""The one fan-out (``sim.backends``, issue 40): the study's runs and valued deals and a
course's valued deals run on the local pool or a real dask scheduler with two workers
on loopback, and give the same figures; a worker killed mid-study loses only the deal it
was on, which runs again, and the figures are unchanged; a task waits for the memory it
asks for, and one that no worker can hold is refused in one line.

The study runs at a tiny scale (putt-putt, chunks of 18 deals, 20 valued deals) with its
deals valued by the stand-ins of tests/valuers.py (the plumbing is under test; the values
are test_odds', test_honest_twin's and test_play_orders'), which the workers import by
name (``tests/`` is on their path).  The reference is the same study on two local
worker processes; simulate's own dask test is in test_simulate.
"""

from __future__ import annotations

import logging
import os
from dataclasses import replace

import polars as pl
import pytest
import valuers
from naps import DyingNapJob, Nap, NapJob, overlap

from golfstats.sim import SimError
from golfstats.sim.backends import open_workers
from golfstats.study import StudyConfig, run_study

distributed = pytest.importorskip("distributed")

#: The study of every test here: putt-putt's main run and 20 valued deals (two batches).
CONFIG = StudyConfig(scale=0.0005, variants=("putt-putt",), sampling_variants=(),
                     optimal_variants=("putt-putt",), optimal_min_n=24_000, optimal_max_n=60_000,
                     optimal_target=0.025, optimal_max_bytes=1_000_000_000, workers=2,
                     record_variants=())


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A dask scheduler and two worker processes on loopback (``dying_value``'s folder set
    first, so that the workers see it)."""
    os.environ[valuers.DIE_ONCE] = str(tmp_path_factory.mktemp("died"))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as running:
        yield running


def _use_stand_ins(monkeypatch) -> None:
    """The study's valuers replaced by the stand-ins (module-level: the workers import them)."""
    import golfstats.study.optimum as optimum
    import golfstats.study.plan as plan

    monkeypatch.setattr(plan, "CHUNK_SECONDS", 1e-9)  # chunks of 18 deals: several a run
    monkeypatch.setattr(optimum, "value_deal", valuers.fake_value)
    monkeypatch.setattr(optimum, "strokes_deal", valuers.fake_strokes)
    monkeypatch.setattr(optimum, "warm_deal_kernels", valuers.fake_warm)


@pytest.fixture
def stand_ins(monkeypatch):
    _use_stand_ins(monkeypatch)
    return monkeypatch


def _figures(out) -> dict[str, pl.DataFrame]:
    """What the study prints: its summary (without the seconds), tables and par."""
    figures = {"summary": pl.read_parquet(out / "summary.parquet").drop("cpu_seconds")}
    for table in sorted((out / "tables").glob("*.csv")):
        figures[table.stem] = pl.read_csv(table)
    return figures


def _same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for name in a:
        assert a[name].equals(b[name]), name


@pytest.fixture(scope="module")
def local_study(tmp_path_factory, cluster):
    """The reference: the study on two local worker processes."""
    mp = pytest.MonkeyPatch()
    try:
        _use_stand_ins(mp)
        out = tmp_path_factory.mktemp("local") / "study"
        run_study(replace(CONFIG, out=out))
    finally:
        mp.undo()
    return _figures(out)


def test_the_study_on_dask_gives_the_local_pools_figures(local_study, cluster, stand_ins, tmp_path):
    out = tmp_path / "dask"
    said = []
    run_study(replace(CONFIG, out=out, backend="dask", scheduler=cluster.scheduler_address),
              note=said.append)
    _same(_figures(out), local_study)
    assert len(list((out / "ledger").glob("optimal-*/deal-*.json"))) == 20
    assert not [line for line in said if "set aside" in line]


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["dask", "local"])
def test_a_worker_killed_mid_study_loses_nothing(local_study, cluster, stand_ins, tmp_path,
                                                 backend, caplog):
    """``dying_value`` kills the worker valuing deal 5 once: the deal runs again on another
    worker (dask) or a new one (the local pool), and the ledger holds every deal whole."""
    import golfstats.study.optimum as optimum

    seed = CONFIG.seed
    stand_ins.setattr(optimum, "value_deal", valuers.dying_value)
    died = valuers.died_file("putt-putt", seed)
    died.unlink(missing_ok=True)
    out = tmp_path / backend
    config = replace(CONFIG, out=out, backend=backend,
                     scheduler=cluster.scheduler_address if backend == "dask" else None)
    with caplog.at_level(logging.WARNING, logger="golfstats"):
        run_study(config)
    assert died.exists()  # a worker did die
    _same(_figures(out), local_study)
    (folder,) = (out / "ledger").glob("optimal-*")
    rows = optimum.read_rows(folder)
    assert rows["deal_index"].to_list() == list(range(20)) and rows["resolved"].all()
    assert not list(folder.glob(".*"))  # no temporary left by a write cut short
    if backend == "local":
        assert "while on deal 5 of putt-putt" in caplog.text and "runs again" in caplog.text


def test_a_local_worker_that_dies_loses_only_its_task(tmp_path, caplog):
    """The pool replaces a worker killed on a task and runs the task again on the new one;
    a job without retries (simulate's chunks) stops instead, naming the task."""
    marker = tmp_path / "died"
    with caplog.at_level(logging.WARNING, logger="golfstats"), open_workers("local", 2) as fleet:
        with fleet.serve(DyingNapJob(0.2, marker=str(marker))) as serving:
            done = {task.index: span for task, span in serving.stream([Nap(i, 0) for i in range(6)])}
        assert sorted(done) == list(range(6)) and marker.exists()
        assert done[2][0] != int(marker.read_text())  # done again, by another process
        assert "died with exit code -9 while on nap 2; it runs again on a new worker" in caplog.text
        marker.unlink()
        with fleet.serve(DyingNapJob(0.2, marker=str(marker), retries=0)) as serving:
            with pytest.raises(SimError, match="died with exit code -9 while playing nap 2"):
                list(serving.stream([Nap(i, 0) for i in range(6)]))


def test_a_course_on_dask_is_the_local_pools_course(cluster, monkeypatch):
    """A band's deals valued on the cluster or on the local pool: the same holes, pars and
    chances (the chance a stand-in's, fixed by each deal's cards)."""
    import golfstats.course_search as search
    from golfstats.course import DealSearch, ParSettings, band_for, make_course
    from golfstats.rules import parse_variant

    monkeypatch.setattr(search, "honest_win_p", valuers.fake_win_p)
    rules = parse_variant("putt-putt")
    band = band_for(rules, min_win=0.3, max_win=0.7)
    courses = [make_course(rules, 9, 11, par=ParSettings(orders=12),
                           search=DealSearch(band, workers=workers, backend=backend,
                                             scheduler=cluster.scheduler_address
                                             if backend == "dask" else None))
               for workers, backend in ((1, "local"), (2, "local"), (2, "dask"))]
    assert courses[0].to_json() == courses[1].to_json() == courses[2].to_json()
    assert all(0.3 <= h.win_p < 0.7 for h in courses[0].hole_list)


# ------------------------------------------------------------------ memory

def test_a_task_waits_for_the_memory_it_needs_on_the_local_pool():
    """Two workers sharing 100 bytes: tasks of 60 never run together, tasks of 40 do."""
    with open_workers("local", 2, memory=100) as fleet, fleet.serve(NapJob()) as serving:
        big = [r for _, r in serving.stream([Nap(i, 60) for i in range(4)])]
        small = [r for _, r in serving.stream([Nap(i, 40) for i in range(4)])]
    assert not overlap(big) and overlap(small)
    assert len({pid for pid, *_ in big + small}) == 2


def test_a_task_as_large_as_a_dask_worker_runs_there_alone(cluster):
    with distributed.Client(cluster) as client:
        largest = max(w["resources"]["MEMORY"] for w in client.scheduler_info()["workers"].values())
    with open_workers("dask", 2, cluster.scheduler_address, "WARNING") as fleet:
        assert fleet.largest_memory == largest and fleet.slots == 2
        with fleet.serve(NapJob()) as serving:
            done = [r for _, r in serving.stream([Nap(i, largest) for i in range(6)])]
    for pid in {pid for pid, *_ in done}:
        assert not overlap([r for r in done if r[0] == pid])  # alone on its worker


@pytest.mark.parametrize("backend", ["local", "dask"])
def test_a_task_no_worker_can_hold_is_refused_before_any_runs(cluster, backend):
    scheduler = cluster.scheduler_address if backend == "dask" else None
    with open_workers(backend, 2, scheduler, "WARNING") as fleet, fleet.serve(NapJob()) as serving:
        with pytest.raises(SimError, match=r"nap 1 needs [\d.]+ GB of memory, more than .* has"):
            list(serving.stream([Nap(0, 1), Nap(1, 10 * fleet.largest_memory)]))


# ------------------------------------------------------------------ the command line


@pytest.mark.parametrize("args, message, code", [
    (["study", "--scheduler", "tcp://127.0.0.1:8786"], "--scheduler is only for --backend dask", 2),
    (["course", "--scheduler", "tcp://127.0.0.1:8786"], "--scheduler is only for --backend dask", 2),
    (["course", "--backend", "dask"], "give --difficulty, --min-win or --max-win", 2),
    (["study", "--backend", "dask", "--no-play"], "--no-play plays nothing", 2),
    (["study", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1", "--out", "OUT"],
     "cannot reach the dask scheduler at tcp://127.0.0.1:1: Connection refused", 1),
    (["course", "--backend", "dask", "--scheduler", "nonsense://x", "--min-win", "0.5"],
     "cannot reach the dask scheduler at nonsense://x: unknown address scheme", 1),
])
def test_bad_backend_options_are_one_line(args, message, code, tmp_path):
    from test_errors import invoke

    exit_code, out, err = invoke([tmp_path.as_posix() if a == "OUT" else a for a in args])
    lines = [line for line in (out + err).splitlines() if line.strip()]
    assert lines == [lines[0]] and lines[0].startswith("golfstats: error: ") and message in lines[0]
    assert exit_code == code


def test_without_dask_the_dask_backend_is_refused_in_one_line(monkeypatch, tmp_path):
    from test_errors import invoke

    import golfstats.sim.backends as backends

    monkeypatch.setattr(backends, "dask_available", lambda: False)
    code, _, err = invoke(["study", "--backend", "dask", "--out", str(tmp_path / "st")])
    assert code == 1 and err.strip() == ("golfstats: error: the dask backend needs "
                                         "dask.distributed: pip install 'golfstats[dask]'")


@pytest.mark.parametrize("command", ["study", "course", "simulate"])
def test_help_explains_where_the_work_runs(command):
    from typer.testing import CliRunner

    from golfstats.cli import app

    help_text = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "250"},
                                   terminal_width=250).output
    text = " ".join(help_text.replace("│", " ").split())
    for option in ("--backend", "--scheduler", "--workers"):
        assert option in text
    assert "a dask.distributed cluster" in text and "e.g. tcp://10.0.0.5:8786" in text
