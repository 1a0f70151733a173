"""Nothing silently wrong in a run folder (issue 38): every reader checks the parts and
the summary against run.json's records; one writer at a time; a run killed outright
continues with the same command; a full disk is one line, run.json marked failed and no
partial file left; a reader of standard output that goes away (``| head``) ends the
command quietly.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from conftest import PYSOL_1
from test_errors import invoke

from golfstats.locks import LOCK
from golfstats.policies import policies_from_names
from golfstats.rules import parse_variant
from golfstats.runs import RunError, load_run
from golfstats.sim import SimConfig, SimError, run_simulation

RULES = parse_variant("strict")
GREEDY = policies_from_names(["greedy", "random"])
TESTS = str(Path(__file__).parent)
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([TESTS, os.environ.get("PYTHONPATH", "")])}


def _config(out: Path, **changes) -> SimConfig:
    fields = {"rules": RULES, "policies": GREEDY, "n": 200, "seed": 7, "workers": 1,
              "chunk_size": 50, "out": out}
    return SimConfig(**{**fields, **changes})


def _figures(run: Path) -> pl.DataFrame:
    return load_run(run).summary.drop("cpu_seconds")


@pytest.fixture(scope="module")
def sealed(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("integrity") / "run"
    run_simulation(_config(out), progress=False)
    return out


def _copy(run: Path, to: Path) -> Path:
    shutil.copytree(run, to)
    return to


def _tamper(part: Path, how: str) -> None:
    if how == "deleted":
        part.unlink()
    elif how == "truncated":
        part.write_bytes(part.read_bytes()[:-300])
    else:  # one bit of one byte
        data = bytearray(part.read_bytes())
        data[len(data) // 2] ^= 1
        part.write_bytes(bytes(data))


def test_run_json_records_every_part_and_the_summary(sealed):
    from golfstats.atomic import sha256_of

    record = json.loads((sealed / "run.json").read_text())
    assert sorted(record["parts"]) == [f"part-00000{i}.parquet" for i in range(4)]
    for name, part in record["parts"].items():
        path = sealed / "deals" / name
        assert part == {"deals": 50, "rows": 100, "bytes": path.stat().st_size,
                        "sha256": sha256_of(path)}
    assert record["summary"]["sha256"] == sha256_of(sealed / "summary.parquet")
    assert not (sealed / LOCK).exists()  # the lock went with its writer


@pytest.mark.parametrize("how, said", [("deleted", "is missing (run.json records 4 parts)"),
                                       ("truncated", "is truncated or altered"),
                                       ("altered", "is altered: its sha256")])
def test_a_bad_part_is_one_line_naming_it_and_resume_plays_it_again(sealed, tmp_path, how, said):
    run = _copy(sealed, tmp_path / "run")
    _tamper(run / "deals" / "part-000002.parquet", how)
    with pytest.raises(RunError) as error:
        load_run(run)
    message = str(error.value)
    assert f"deals/part-000002.parquet {said}" in message and "\n" not in message
    assert f"golfstats simulate --out {run} --resume" in message
    for argv in (["par", str(run), "-p", "greedy"], ["report", str(run), "--out", str(tmp_path / "r")],
                 ["compare", str(run), "-p", "greedy", "-p", "random"]):
        code, _, err = invoke(argv)
        assert code == 1 and err.count("\n") == 1 and "part-000002.parquet" in err, err
    run_simulation(_config(run, chunk_size=None, resume=True), progress=False)
    assert _figures(run).equals(_figures(sealed))  # played again: the same figures


def test_an_altered_summary_or_a_part_run_json_does_not_record_is_named(sealed, tmp_path):
    run = _copy(sealed, tmp_path / "run")
    _tamper(run / "summary.parquet", "altered")
    with pytest.raises(RunError, match="summary.parquet is altered.*--resume"):
        load_run(run)
    run = _copy(sealed, tmp_path / "extra")
    shutil.copy(run / "deals" / "part-000001.parquet", run / "deals" / "part-000007.parquet")
    with pytest.raises(RunError, match="part-000007.parquet not recorded in run.json"):
        load_run(run)


def test_a_folder_written_before_digests_is_read_and_sealed_by_resume(sealed, tmp_path):
    """Old run folders (no ``parts`` in run.json) are read as before; a missing part of
    a complete one is still named (run.json counts its chunks); --resume records them."""
    run = _copy(sealed, tmp_path / "old")
    record = json.loads((run / "run.json").read_text())
    old = {k: v for k, v in record.items() if k not in ("parts", "summary")}
    (run / "run.json").write_text(json.dumps(old))
    assert _figures(run).equals(_figures(sealed))
    (run / "deals" / "part-000003.parquet").unlink()
    with pytest.raises(RunError, match=r"part-000003.parquet is missing \(run.json counts 4"):
        load_run(run)
    run_simulation(_config(run, chunk_size=None, resume=True), progress=False)
    assert len(json.loads((run / "run.json").read_text())["parts"]) == 4
    assert _figures(run).equals(_figures(sealed))


def _holder(folder: Path) -> subprocess.Popen:
    """Another process holding ``folder``'s lock until it is killed."""
    script = ("import sys, time\nfrom golfstats.locks import hold\n"
              f"with hold({str(folder)!r}):\n    print('held', flush=True)\n    time.sleep(600)\n")
    proc = subprocess.Popen([sys.executable, "-c", script], env=ENV, stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_a_second_writer_is_refused_in_one_line_and_a_dead_ones_lock_is_taken_over(sealed, tmp_path):
    run = _copy(sealed, tmp_path / "run")
    holder = _holder(run)
    try:
        code, _, err = invoke(["simulate", "--out", str(run), "--resume", "-q"])
        assert code == 1 and err.count("\n") == 1, err
        assert f"is being written by pid {holder.pid}" in err
    finally:
        holder.kill()
        holder.wait()
    assert (run / LOCK).exists()  # killed outright: its lock stays, naming a pid that is gone
    code, _, err = invoke(["simulate", "--out", str(run), "--resume", "-q"])
    assert code == 0, err
    assert not (run / LOCK).exists()


def test_two_simulate_processes_on_one_folder(tmp_path):
    """A real second writer: the first run plays slow chunks; the second, with --resume
    (which once both played the same chunks), is refused naming the first's pid."""
    out = tmp_path / "run"
    script = ("import chunk_hooks\nfrom golfstats.policies import policies_from_names\n"
              "from golfstats.rules import parse_variant\n"
              "from golfstats.sim import SimConfig, run_simulation\n"
              "if __name__ == '__main__':\n"
              "    run_simulation(SimConfig(parse_variant('strict'), policies_from_names(['greedy']),"
              f" n=400, seed=7, workers=1, chunk_size=20, out={str(out)!r},"
              " before_chunk=chunk_hooks.slow_chunk), progress=False)\n")
    first = subprocess.Popen([sys.executable, "-c", script], env=ENV)
    try:
        while not (out / "run.json").exists() and first.poll() is None:
            time.sleep(0.1)
        code, _, err = invoke(["simulate", "--out", str(out), "--resume", "-q"])
        assert code == 1 and err.count("\n") == 1, err
        assert f"pid {first.pid}" in err and "being written" in err
    finally:
        first.wait(timeout=600)
    assert first.returncode == 0
    assert json.loads((out / "run.json").read_text())["status"] == "complete"


def test_a_run_killed_outright_continues_with_the_same_command(sealed, tmp_path):
    """SIGKILL to the run's whole process group at chunk 2: run.json still says
    "running", and the same command (no --resume) continues it to the rows of one run."""
    out = tmp_path / "killed"
    argv = ["simulate", "--variant", "strict", "-n", "200", "--seed", "7", "-p", "greedy",
            "-p", "random", "--chunk-size", "50", "--workers", "1", "--out", str(out), "-q"]
    script = ("import sys, chunk_hooks\nfrom dataclasses import replace\nimport golfstats.sim.run as run\n"
              "real = run.run_simulation\n"
              "run.run_simulation = lambda config, **kw: real(replace(config, "
              "before_chunk=chunk_hooks.kill_run_at_chunk_2), **kw)\n"
              "from golfstats.cli import main\n"
              f"sys.argv = ['golfstats', *{argv!r}]\n"
              "if __name__ == '__main__':\n    main()\n")
    proc = subprocess.run([sys.executable, "-c", script], env=ENV, start_new_session=True,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    assert proc.returncode == -signal.SIGKILL
    assert json.loads((out / "run.json").read_text())["status"] == "running"
    assert (out / LOCK).exists()
    code, _, err = invoke(argv)
    assert code == 0, err
    record = json.loads((out / "run.json").read_text())
    assert record["status"] == "complete" and len(record["attempts"]) == 2
    assert _figures(out).equals(_figures(sealed))


def _small_tmpfs(where: Path, kbytes: int) -> bool:
    """Mount a tmpfs of ``kbytes`` at ``where`` (root only; False where it cannot)."""
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={kbytes}k", "tmpfs", str(where)],
                          capture_output=True)
    return done.returncode == 0


def _fill(folder: Path, leave: int) -> Path:
    """A file taking all of ``folder``'s file system but ``leave`` bytes."""
    free = shutil.disk_usage(folder).free
    filler = folder / "filler"
    filler.write_bytes(b"\0" * max(0, free - leave))
    return filler


def _no_partial_files(run: Path) -> None:
    """Whatever the run left is whole: every part is the one run.json records, and no
    temporary file is left beside them."""
    assert not [p for p in run.rglob(".*") if p.name != LOCK], list(run.rglob(".*"))
    record = json.loads((run / "run.json").read_text())
    for part in (run / "deals").glob("part-*.parquet"):
        if part.name in record.get("parts", {}):
            assert part.stat().st_size == record["parts"][part.name]["bytes"]


def test_a_full_disk_is_one_line_and_the_same_command_finishes(sealed, tmp_path, monkeypatch):
    disk = tmp_path / "disk"
    mounted = _small_tmpfs(disk, 256)
    try:
        out = disk / "run"
        argv = ["simulate", "--variant", "strict", "-n", "200", "--seed", "7", "-p", "greedy", "-p",
                "random", "--chunk-size", "50", "--workers", "1", "--out", str(out), "-q"]
        if mounted:  # a real full disk: room for run.json and a part or two
            filler = _fill(disk, 20_000)
        else:  # else run.json's third write (after the first part) fails as a full disk does
            import golfstats.sim.run as sim_run

            disk.mkdir()
            calls, real = [], sim_run.write_json

            def full(path, data):
                calls.append(path)
                if len(calls) >= 3:
                    raise OSError(28, "No space left on device", str(path))
                real(path, data)

            monkeypatch.setattr(sim_run, "write_json", full)
        code, _, err = invoke(argv)
        assert code == 1 and err.count("\n") == 1 and "Traceback" not in err, err
        assert err.startswith("golfstats: error: ") and "No space left on device" in err
        assert "run the same command again" in err
        _no_partial_files(out)
        if mounted:
            filler.unlink()
        else:
            monkeypatch.undo()
            assert json.loads((out / "run.json").read_text())["status"] == "running"  # not markable
        code, _, err = invoke(argv)
        assert code == 0, err
        assert _figures(out).equals(_figures(sealed))
    finally:
        if mounted:
            subprocess.run(["umount", str(disk)], check=False)


def test_a_full_disk_during_the_summary_marks_the_run_failed(sealed, tmp_path, monkeypatch):
    """ENOSPC injected where the summary is written: run.json says failed, the summary is
    not left half-written, and the same command finishes."""
    import golfstats.atomic as atomic

    out = tmp_path / "run"
    real = atomic.write_atomic

    def failing(path, fill):
        if Path(path).name != "summary.parquet":
            return real(path, fill)

        def partial(tmp):
            tmp.write_bytes(b"PAR1 half a summary")
            raise OSError(28, "No space left on device", str(tmp))

        return real(path, partial)

    monkeypatch.setattr(atomic, "write_atomic", failing)
    with pytest.raises(SimError, match="No space left on device") as failure:
        run_simulation(_config(out), progress=False)
    assert "\n" not in str(failure.value)
    assert json.loads((out / "run.json").read_text())["status"] == "failed"
    assert not (out / "summary.parquet").exists()
    _no_partial_files(out)
    monkeypatch.undo()
    run_simulation(_config(out), progress=False)
    assert _figures(out).equals(_figures(sealed))


@pytest.mark.parametrize("argv", [["variants"], ["deal", "{boards}", "-v", "strict"]])
def test_a_closed_pipe_ends_the_command_quietly(tmp_path, argv):
    """``golfstats ... | head -1`` through a real pipe: exit 0, nothing on stderr."""
    boards = tmp_path / "boards.txt"
    boards.write_text("\n".join([PYSOL_1] * 400))  # more than a pipe's buffer of pictures
    argv = [a.replace("{boards}", str(boards)) for a in argv]
    proc = subprocess.Popen([sys.executable, "-m", "golfstats", *argv], env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()  # as head does once it has its line
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 0, err
    assert first and err == ""
