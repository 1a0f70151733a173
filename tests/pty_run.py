"""Run a command on a pseudo-terminal, as a user types it, and read what it showed.

rich, progress bars and colour take other code paths on a terminal than when piped
(STYLE.md, habit 18): ``run_on_pty`` gives the command a terminal of its own (stdin,
stdout and stderr, 120 columns), reads everything it draws until it exits, and returns
the exit code with the text, ANSI escape sequences removed.  ``interrupt_when`` types
Ctrl-C once the text so far matches a pattern, as a user stopping a run would.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from dataclasses import dataclass
from pathlib import Path

#: Escape sequences: CSI (cursor moves, colours), OSC (titles, links) and two-byte ones.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
COLUMNS, ROWS = 120, 40


@dataclass(frozen=True)
class PtyRun:
    """What a command did on the terminal: its exit code (negative: killed by that
    signal), everything it drew as plain text, and how long it took."""

    code: int
    text: str
    seconds: float

    def __str__(self) -> str:  # what a failing assertion shows
        return f"exit code {self.code} after {self.seconds:.1f} s; the terminal showed:\n{self.text}"


def golfstats(*args: str) -> list[str]:
    """The command line of ``golfstats ARGS`` with this interpreter (the installed entry
    point, ``golfstats.cli:main``)."""
    return [sys.executable, "-c", "from golfstats.cli import main; main()", *args]


def run_on_pty(argv: list[str], cwd: Path | str | None = None, timeout: float = 300.0,
               env: dict | None = None, interrupt_when: str | None = None) -> PtyRun:
    """Run ``argv`` with a pseudo-terminal as its stdin, stdout and stderr; wait for it to
    exit (killing its process group after ``timeout`` seconds, then failing).  With
    ``interrupt_when`` (a regular expression), Ctrl-C is typed once the plain text drawn
    so far matches it.  ``env`` adds to the environment (a value None removes a name)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    environ = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(COLUMNS),
               "LINES": str(ROWS), **(env or {})}
    for name in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        if env is None or name not in env:
            environ.pop(name, None)
    for name in [k for k, v in environ.items() if v is None]:  # env={"NAME": None} unsets
        del environ[name]
    started = time.monotonic()
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=environ,
                            start_new_session=True, preexec_fn=lambda: _take_terminal(slave),
                            close_fds=True)
    os.close(slave)
    raw = bytearray()
    interrupted = interrupt_when is None
    try:
        while True:
            if time.monotonic() - started > timeout:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                raise AssertionError(f"{' '.join(argv)} still ran after {timeout:.0f} s:\n"
                                     f"{_plain(bytes(raw))}")
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the terminal closed: every process holding it is gone
                    chunk = b""
                if not chunk:
                    break
                raw += chunk
            if not interrupted and re.search(interrupt_when, _plain(bytes(raw))):
                os.write(master, b"\x03")  # Ctrl-C: the terminal sends SIGINT to the job
                interrupted = True
        code = proc.wait(timeout=max(1.0, timeout - (time.monotonic() - started)))
    finally:
        os.close(master)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return PtyRun(code, _plain(bytes(raw)), time.monotonic() - started)


def _take_terminal(fd: int) -> None:
    """In the child, a session leader: make the pty its controlling terminal, so that
    Ctrl-C typed on it reaches the command's process group."""
    fcntl.ioctl(fd, termios.TIOCSCTTY, 0)


def _plain(raw: bytes) -> str:
    text = _ANSI.sub("", raw.decode("utf-8", "replace"))
    return text.replace("\r\n", "\n").replace("\r", "\n")
