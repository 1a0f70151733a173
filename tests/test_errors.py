"""Every command, every bad input: one ``golfstats: error: ...`` line on stderr, the
README's exit code (1: data that cannot be used, a path that cannot be read or written;
2: a usage error) and no traceback (README, "Exit codes"; issue 22).

The sweep runs each command through ``golfstats.cli.main``, the console script's entry
point (``CliRunner`` would bypass its one-line usage errors), in-process, with the same
bad inputs: a wrong variant, a malformed board (or run), n <= 0, unwritable paths
(``file.txt/x``, ``/proc/x``), a missing file and a folder that is not a run.  An input
a command does not take is left out of its rows.  ``python tests/test_errors.py`` prints
the table (command, input, exit code, message).

Faults and tampering (issue 38) have rows too: a run's part deleted, truncated or
altered; a ledger record altered, truncated or without a key (``study --seal-ledger``);
a second writer; a run killed then continued with the same command; a full disk; a
closed pipe.  A row of exit code 0 (the run continued, the pipe closed) wants nothing on
stderr.  (The same faults through real processes, a real pipe and a small tmpfs are in
tests/test_run_integrity.py.)
"""

from __future__ import annotations

import io
import json
import shutil
import socket
import subprocess
import sys
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pytest
from conftest import PYSOL_1
from run_fixtures import deal_rows, write_frames, write_run

from golfstats.cli import main
from golfstats.rules import RULES_VERSION, parse_variant

USAGE, DATA = 2, 1


@dataclass(frozen=True)
class Case:
    command: str
    input: str
    args: tuple[str, ...]  # "{x}" is replaced by the sandbox folder
    code: int
    needle: str = ""
    fault: str = ""  # a fault injected while the command runs (``_FAULTS``)


def _cases() -> list[Case]:
    out: list[Case] = []
    add = out.append
    for cmd in ("deal", "solve", "odds", "hint", "play"):
        add(Case(cmd, "wrong variant", (cmd, "--pysol", "1", "--variant", "nope"), USAGE,
                 "unknown variant"))
        add(Case(cmd, "malformed board", (cmd, "{x}/bad.txt"), DATA, "board 1"))
        add(Case(cmd, "n <= 0: --index -1", (cmd, "--seed", "1", "--index", "-1"), USAGE, "--index"))
        add(Case(cmd, "missing file", (cmd, "{x}/missing.txt"), DATA, "cannot read"))
        add(Case(cmd, "folder, not a board file", (cmd, "{x}/notarun"), DATA, "cannot read"))
        add(Case(cmd, "-v contradicting the file's '# rules:'", (cmd, "{x}/house.txt", "-v", "strict"),
                 USAGE, "names the rule set putt-putt+jokers1+when-stuck, but -v strict says strict"))
        add(Case(cmd, "a flag contradicting the file's '# rules:'",
                 (cmd, "{x}/house.txt", "--draw", "any-time"), USAGE, "--draw any-time says"))
        add(Case(cmd, "retired alias: --variant hard", (cmd, "--pysol", "1", "--variant", "hard"),
                 USAGE, "write strict"))
    add(Case("solve", "'# rules:' naming no rule set", ("solve", "{x}/norules.txt"), DATA,
             "board 1, line 1: '# rules: hard'"))
    add(Case("solve", "n <= 0: --count 0", ("solve", "--seed", "1", "--count", "0"), USAGE, "--count"))
    add(Case("odds", "n <= 0: --max-states 0", ("odds", "--pysol", "1", "--max-states", "0"), USAGE,
             "--max-states"))
    add(Case("odds", "n <= 0: --max-memory 0", ("odds", "--pysol", "1", "--max-memory", "0"), USAGE,
             "--max-memory"))
    add(Case("deal", "n <= 0: --after -1", ("deal", "--pysol", "1", "--after", "-1"), USAGE, "--after"))
    add(Case("deal", "too many moves: --after 500", ("deal", "--pysol", "1", "--after", "500"),
             USAGE, "ends this hand"))

    sim = ("simulate", "-p", "greedy")
    add(Case("simulate", "wrong variant", (*sim, "--variant", "nope", "--out", "{x}/s1"), USAGE,
             "unknown variant"))
    add(Case("simulate", "malformed run.json (--resume)", (*sim, "--out", "{x}/badrun", "--resume"),
             DATA, "run.json"))
    add(Case("simulate", "n <= 0: -n 0", (*sim, "-n", "0", "--out", "{x}/s2"), USAGE, "-n"))
    add(Case("simulate", "unwritable --out file.txt/x", (*sim, "-n", "5", "--out", "{x}/file.txt/x"),
             DATA, "file.txt/x"))
    add(Case("simulate", "unwritable --out /proc/x", (*sim, "-n", "5", "--out", "/proc/x"), DATA,
             "/proc/x"))
    add(Case("simulate", "unwritable --log-file /proc/x",
             (*sim, "-n", "5", "--out", "{x}/s3", "--log-file", "/proc/x"), DATA, "/proc/x"))
    add(Case("simulate", "missing folder of --log-file",
             (*sim, "-n", "5", "--out", "{x}/s4", "--log-file", "{x}/missing/log.txt"), DATA,
             "missing/log.txt"))
    add(Case("simulate", "folder, not a run (--resume)", (*sim, "--out", "{x}/notarun", "--resume"),
             DATA, "not a golfstats run"))
    add(Case("simulate", "another n than the run's (--resume)",
             ("simulate", "--out", "{x}/run", "--resume", "-n", "7"), USAGE, "has n"))

    for cmd, extra in (("report", ()), ("par", ()), ("compare", ("-p", "greedy", "-p", "lookahead"))):
        if cmd != "report":
            add(Case(cmd, "wrong variant", (cmd, "{x}/run", *extra, "--variant", "nope"), USAGE,
                     "unknown variant"))
        add(Case(cmd, "malformed run", (cmd, "{x}/badrun", *extra), DATA, "cannot read"))
        add(Case(cmd, "unwritable --out file.txt/x", (cmd, "{x}/run", *extra, "--out", "{x}/file.txt/x"),
                 DATA, "file.txt/x"))
        add(Case(cmd, "unwritable --out /proc/x", (cmd, "{x}/run", *extra, "--out", "/proc/x"), DATA,
                 "/proc/x"))
        add(Case(cmd, "missing run directory", (cmd, "{x}/missing", *extra), DATA, "no such run"))
        add(Case(cmd, "folder, not a run", (cmd, "{x}/notarun", *extra), DATA, "not a run directory"))
    add(Case("par", "n <= 0: -n 0", ("par", "-n", "0"), USAGE, "-n"))
    add(Case("par", "a policy not in the run", ("par", "{x}/run", "-p", "exact"), USAGE, "not in the run"))
    add(Case("compare", "a policy not in the run", ("compare", "{x}/run", "-p", "greedy", "-p", "exact"),
             USAGE, "not in the run"))
    add(Case("compare", "two runs of other seeds", ("compare", "{x}/run", "{x}/run8", "-p", "lookahead"),
             USAGE, "not the same deals"))
    add(Case("compare", "two runs sharing no deal", ("compare", "{x}/run", "{x}/runlate", "-p",
                                                     "lookahead"), USAGE, "share no deal"))
    add(Case("compare", "two runs of one rule set", ("compare", "{x}/run", "{x}/run", "-p",
                                                     "lookahead"), USAGE, "both strict"))
    add(Case("compare", "retired alias: --variant easy",
             ("compare", "{x}/run", "-p", "greedy", "-p", "lookahead", "--variant", "easy"), USAGE,
             "write putt-putt"))

    add(Case("course", "wrong variant", ("course", "--variant", "nope"), USAGE, "unknown variant"))
    add(Case("course", "malformed date", ("course", "--date", "2025-13-01"), USAGE, "bad date"))
    add(Case("course", "n <= 0: --holes 0", ("course", "--holes", "0"), USAGE, "--holes"))
    add(Case("course", "unwritable --out file.txt/x", ("course", "--out", "{x}/file.txt/x"), DATA,
             "file.txt/x"))
    add(Case("course", "unwritable --boards /proc/x", ("course", "--boards", "/proc/x"), DATA, "/proc/x"))
    add(Case("course", "missing folder of --out", ("course", "--out", "{x}/missing/c.json"), DATA,
             "missing/c.json"))
    add(Case("course", "folder as --out", ("course", "--out", "{x}/notarun"), DATA, "notarun"))

    add(Case("study", "wrong variant", ("study", "--variants", "nope", "--out", "{x}/st"), USAGE,
             "unknown variant"))
    add(Case("study", "n <= 0: --scale 0", ("study", "--scale", "0", "--out", "{x}/st"), USAGE, "--scale"))
    add(Case("study", "unwritable --out file.txt/x", ("study", "--out", "{x}/file.txt/x"), DATA,
             "file.txt/x"))
    add(Case("study", "unwritable --out /proc/x", ("study", "--out", "/proc/x"), DATA, "/proc/x"))

    add(Case("review", "missing file", ("review", "{x}/missing.json"), DATA, "cannot read"))
    add(Case("review", "folder, not a game", ("review", "{x}/notarun"), DATA, "cannot read"))
    add(Case("review", "not JSON", ("review", "{x}/file.txt"), DATA, "not a game"))
    add(Case("review", "JSON, not a game", ("review", "{x}/nogame.json"), DATA, "lacks"))
    add(Case("review", "wrong variant in the game", ("review", "{x}/badvariant.json"), DATA,
             "unknown variant"))
    add(Case("review", "malformed board_text", ("review", "{x}/badboard.json"), DATA, "board_text"))
    add(Case("review", "an illegal move", ("review", "{x}/illegal.json"), DATA, "not legal"))
    add(Case("review", "a move naming another card", ("review", "{x}/othercard.json"), DATA,
             "not 9H"))
    add(Case("review", "unwritable --chart /proc/x", ("review", "{x}/illegal.json", "--chart",
                                                      "/proc/x"), DATA, "/proc/x"))
    add(Case("review", "unknown option", ("review", "{x}/illegal.json", "--variant", "strict"),
             USAGE, "no such option"))

    for cmd in ("variants", "policies"):
        add(Case(cmd, "unknown option", (cmd, "--variant", "nope"), USAGE, "no such option"))

    # faults and tampering (issue 38)
    add(Case("par", "a part deleted", ("par", "{x}/deleted", "-p", "greedy"), DATA,
             "part-000000.parquet is missing"))
    add(Case("report", "a part truncated", ("report", "{x}/truncated", "--out", "{x}/rep"), DATA,
             "part-000000.parquet is truncated"))
    add(Case("compare", "a part altered", ("compare", "{x}/altered", "-p", "greedy", "-p", "lookahead"),
             DATA, "part-000000.parquet is altered"))
    add(Case("odds", "--max-memory below the process's floor",
             ("odds", "--pysol", "1", "--max-memory", "0.02"), USAGE, "floor"))
    for what in ("altered", "truncated", "without its tally key"):
        add(Case("study", f"a ledger record {what} (--seal-ledger)",
                 ("study", "--out", f"{{x}}/ledger-{what.split()[-2 if 'key' in what else 0]}",
                  "--seal-ledger"), DATA, "chunk-000000.json"))
    add(Case("simulate", "a second writer", (*_SAME, "{x}/held"), DATA, "being written by pid"))
    add(Case("study", "a second writer", ("study", "--out", "{x}/ledger-held", "--seal-ledger"), DATA,
             "being written by pid"))
    add(Case("simulate", "killed, then the same command", (*_SAME, "{x}/killed"), 0))
    add(Case("simulate", "a full disk", (*_SAME, "{x}/full"), DATA, "No space left on device",
             fault="full disk"))
    add(Case("study", "a full disk (--seal-ledger)", ("study", "--out", "{x}/ledger-full",
                                                      "--seal-ledger"),
             DATA, "No space left on device", fault="full disk"))
    add(Case("deal", "a closed pipe (| head)", ("deal", "--pysol", "1"), 0, fault="closed pipe"))
    return out


#: The command that made the sandbox's small run (its identity in run.json): the same
#: command continues it.
_SAME = ("simulate", "--variant", "strict", "-n", "20", "--seed", "7", "-p", "greedy", "-p",
         "lookahead", "--chunk-size", "20", "--workers", "1", "-q", "--out")


CASES = _cases()


def sandbox(folder: Path) -> Path:
    """The files the cases name: a file (``file.txt``), a malformed board, a folder that
    is not a run, a run with a corrupt summary and run.json, and a small real run."""
    (folder / "file.txt").write_text("not a folder\n")
    (folder / "bad.txt").write_text(PYSOL_1.replace("KH AS", "KH XX"))
    (folder / "notarun").mkdir()
    (folder / "notarun" / "notes.txt").write_text("hello\n")
    (folder / "badrun").mkdir()
    (folder / "badrun" / "summary.parquet").write_bytes(b"not parquet")
    (folder / "badrun" / "run.json").write_text("{not json")
    game = {"variant": "strict", "board_text": PYSOL_1, "moves": [{"draw": "8H"}]}
    (folder / "nogame.json").write_text(json.dumps({"board": "pysol:1"}))
    (folder / "badvariant.json").write_text(json.dumps({**game, "variant": "nope"}))
    bad_board = PYSOL_1.replace("KH AS", "KH XX")
    (folder / "badboard.json").write_text(json.dumps({**game, "board_text": bad_board}))
    (folder / "illegal.json").write_text(json.dumps({**game, "moves": [{"play": "AS", "column": 3}]}))
    (folder / "othercard.json").write_text(json.dumps({**game, "moves": [{"draw": "9H"}]}))
    (folder / "house.txt").write_text("# rules: putt-putt+jokers1+when-stuck\n" + PYSOL_1)
    (folder / "norules.txt").write_text("# rules: hard\n" + PYSOL_1)
    write_run(folder / "run8", "putt-putt", ("lookahead",), 20, seed=8)
    late = deal_rows(parse_variant("putt-putt"), ("lookahead",), 40, 7).filter(pl.col("deal_index") >= 20)
    write_frames(folder / "runlate", late, {"command": "test", "seed": 7, "n": 40,
                                            "variant": "putt-putt", "policies": ["lookahead"]})
    run = write_run(folder / "run", "strict", ("greedy", "lookahead"), 20)
    info = json.loads((run / "run.json").read_text())
    info.update(identity={"variant": "strict", "rules_version": RULES_VERSION, "seed": 7, "n": 20,
                          "policies": ["greedy", "lookahead"], "goal": "strokes"}, chunk_size=20)
    (run / "run.json").write_text(json.dumps(info))
    _faults(folder, run)
    return folder


def _sealed_copy(run: Path, to: Path, status: str = "complete") -> Path:
    """``run`` as simulate writes it now: one part per chunk recorded in run.json."""
    from golfstats.runs.write import part_record

    shutil.copytree(run, to)
    (part,) = (to / "deals").glob("part-*.parquet")
    part = part.rename(to / "deals" / "part-000000.parquet")
    info = json.loads((to / "run.json").read_text())
    info.update(status=status, chunks=1, parts={part.name: part_record(part, 20, 40)},
                summary={k: v for k, v in part_record(to / "summary.parquet", 0, 0).items()
                         if k in ("bytes", "sha256")})
    (to / "run.json").write_text(json.dumps(info))
    return to


def _faults(folder: Path, run: Path) -> None:
    """The sandbox's tampered runs and ledgers, a dead writer's run and live writers."""
    from golfstats.locks import LOCK
    from golfstats.study.ledger import write_json

    for how in ("deleted", "truncated", "altered"):
        part = _sealed_copy(run, folder / how) / "deals" / "part-000000.parquet"
        data = part.read_bytes()
        if how == "deleted":
            part.unlink()
        elif how == "truncated":
            part.write_bytes(data[:-100])
        else:
            part.write_bytes(data[:100] + bytes([data[100] ^ 1]) + data[101:])
    tally = {"variant": "strict", "policy": "greedy", "n": 18, "truncated": 0, "wins": 0,
             "strokes_sum": 90, "strokes_sq": 450, "points_sum": 0, "draws_sum": 0, "n_moves_sum": 0,
             "longest_chain_sum": 0, "states_sum": 0, "max_states": 0, "seconds_sum": 0.0,
             "n_win_p": 0, "win_p_sum": 0.0, "win_p_sq": 0.0, "n_expected_strokes": 0,
             "expected_strokes_sum": 0.0, "stroke_hist": [[5, 18]]}
    chunk = {"format": 1, "run": "strict-n18-s1", "identity": {"policies": ["greedy"]},
             "chunk": [0, 0, 18], "seconds": 1.0, "tally": [tally], "pairs": []}
    for what in ("altered", "truncated", "tally", "held", "full"):
        path = folder / f"ledger-{what}" / "ledger" / "strict-n18-s1" / "chunk-000000.json"
        write_json(path, chunk)
        text = path.read_text()
        if what == "altered":
            path.write_text(text.replace('"seconds":1.0', '"seconds":2.0'))
        elif what == "truncated":
            path.write_text(text[:40])
        elif what == "tally":
            data = json.loads(text)
            del data["tally"], data["digest"]
            path.write_text(json.dumps(data))
        elif what == "full":
            data = json.loads(text)
            del data["digest"]  # to be sealed: written on a full disk
            path.write_text(json.dumps(data))
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True)
    killed = _sealed_copy(run, folder / "killed", status="running")
    (killed / LOCK).write_text(json.dumps({"pid": int(gone.stdout), "host": socket.gethostname(),
                                           "start": None, "command": "golfstats simulate"}))
    _sealed_copy(run, folder / "held")
    _sealed_copy(run, folder / "full")
    (folder / "full" / "run.json").write_text(
        (folder / "full" / "run.json").read_text().replace('"complete"', '"failed"'))


@contextmanager
def _fault(name: str):
    """A fault while the command runs: run.json's and the ledger's writes find the disk
    full; standard output's reader is gone."""
    if not name:
        yield None
        return
    if name == "closed pipe":  # a real pipe whose reading end is closed
        import os

        read, write = os.pipe()
        os.close(read)
        stdout = open(write, "w", buffering=1)  # noqa: SIM115 (closed below)
        try:
            yield stdout
        finally:
            try:
                stdout.close()
            except OSError:
                pass
        return
    import golfstats.atomic as atomic

    real = atomic.write_atomic

    def full(path, write):
        raise OSError(28, "No space left on device", str(path))

    atomic.write_atomic = full
    try:
        yield None
    finally:
        atomic.write_atomic = real





def invoke(argv: list[str], out=None) -> tuple[int, str, str]:
    """``golfstats ARGV`` in-process through the console script's ``main``: (exit code,
    stdout, stderr).  An exception other than SystemExit is a traceback: it propagates."""
    out, err = out or io.StringIO(), io.StringIO()
    old = sys.argv
    sys.argv = ["golfstats", *argv]
    try:
        with redirect_stdout(out), redirect_stderr(err):
            main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.argv = old
    return code, out.getvalue() if isinstance(out, io.StringIO) else "", err.getvalue()


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    made = sandbox(tmp_path_factory.mktemp("errors"))
    with _writers(made):
        yield made


@contextmanager
def _writers(folder: Path):
    """Live writers of the sandbox's ``held`` run and ``ledger-held`` ledger."""
    script = ("import sys, time\nfrom golfstats.locks import hold\n"
              "with hold(sys.argv[1]), hold(sys.argv[2]):\n    print('held', flush=True)\n"
              "    time.sleep(3600)\n")
    holder = subprocess.Popen([sys.executable, "-c", script, str(folder / "held"),
                               str(folder / "ledger-held" / "ledger")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        yield
    finally:
        holder.kill()
        holder.wait()


def _argv(case: Case, folder: Path) -> list[str]:
    return [a.replace("{x}", str(folder)) for a in case.args]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.command}: {c.input}")
def test_one_line_and_the_readme_code(case, folder):
    with _fault(case.fault) as stdout:
        code, out, err = invoke(_argv(case, folder), stdout)
    assert "Traceback" not in out + err
    if case.code == 0:  # continued, or quiet on a closed pipe
        assert (code, err) == (0, ""), (code, err)
        return
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("golfstats: error: "), lines[0]
    assert case.needle.lower() in lines[0].lower(), lines[0]
    assert code == case.code, (code, lines[0])


def test_every_command_is_swept():
    from golfstats.cli import app

    commands = {c.name for c in app.registered_commands}
    assert commands == {c.command for c in CASES}


def test_nothing_is_written_where_a_command_failed(folder):
    """A refused --out leaves nothing behind: the checks run before any work."""
    for name in ("s1", "s2", "st"):
        assert not (folder / name).exists() or not any((folder / name).iterdir()), name


def table(folder: Path) -> str:
    rows = ["| command | input | exit code | message |", "|---|---|---:|---|"]
    for case in CASES:
        with _fault(case.fault) as stdout:
            code, _, err = invoke(_argv(case, folder), stdout)
        message = err.strip().replace(str(folder), "DIR").replace("|", "\\|")
        rows.append(f"| {case.command} | {case.input} | {code} | {message} |")
    return "\n".join(rows)


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as tmp, _writers(sandbox(Path(tmp))) as _:
        print(table(Path(tmp)))
