"""``kill PID`` (SIGTERM) on a command with worker processes: it stops as Ctrl-C does, its
finished chunks kept and marked interrupted, and no worker is left running."""

from __future__ import annotations

import json
import signal
import subprocess
import time

import psutil
from pty_run import golfstats


def test_sigterm_stops_the_workers_and_keeps_the_run_resumable(tmp_path):
    out = tmp_path / "run"
    proc = subprocess.Popen(golfstats("simulate", "--variant", "putt-putt", "-n", "2000000",
                                      "--workers", "2", "--quiet", "--out", str(out)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        main = psutil.Process(proc.pid)
        workers = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # until both workers are at work
            workers = [p for p in main.children(recursive=True) if "spawn_main" in " ".join(p.cmdline())]
            if len(workers) == 2 and all(p.cpu_times().user > 2 for p in workers):
                break
            time.sleep(0.5)
        assert len(workers) == 2, "the workers did not start"
        proc.send_signal(signal.SIGTERM)  # as `kill PID` does: the main process alone
        code = proc.wait(timeout=60)
        _, alive = psutil.wait_procs(workers, timeout=20)
        assert not alive, f"workers left running after the main process ended: {alive}"
    finally:
        for p in psutil.Process().children(recursive=True):
            p.kill()
    assert code == 130
    assert "interrupted; finished chunks are kept" in proc.stderr.read().decode()
    assert json.loads((out / "run.json").read_text())["status"] == "interrupted"
