"""One writer at a time: the lock a process holds on a folder it writes (a run folder of
``golfstats simulate``, the study's ledger).

The lock is a file, ``FOLDER/.golfstats.lock``, naming its holder: pid, host, the
process's start time (so that a pid the system gave to another process since is not
taken for the holder) and the command.  It is made whole or not at all (written under a
temporary name, then hard-linked to its name, which fails if the name exists), so two
processes that start together cannot both take it.  A lock whose holder is gone (same
host, no such process, or another process under its pid) is taken over; one held by a
live process, or by a process on another host (which this one cannot see), refuses the
second writer with one line naming the holder (``LockError``).  The lock goes when its
holder leaves the ``hold`` block, however it leaves; a holder killed outright leaves it
behind, to be taken over by the next writer.  Standard library only.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

LOCK = ".golfstats.lock"


class LockError(ValueError):
    """Another process writes the folder (the message is one line)."""


@dataclass(frozen=True)
class Held:
    """A lock this process holds; ``took_over``: it was left by a writer that is gone."""

    path: Path
    took_over: dict | None


def _start_ticks(pid: int) -> int | None:
    """When process ``pid`` started (clock ticks since boot, /proc), or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
        return int(text.rsplit(")", 1)[1].split()[19])
    except (OSError, ValueError, IndexError):
        return None


def _me() -> dict:
    argv = [Path(sys.argv[0]).name, *sys.argv[1:]] if sys.argv else []
    return {"pid": os.getpid(), "host": socket.gethostname(), "start": _start_ticks(os.getpid()),
            "command": " ".join(argv)}


def _alive(holder: dict) -> bool:
    """Whether the lock's holder may still run (a holder on another host may)."""
    if holder.get("host") != socket.gethostname():
        return True
    pid = holder.get("pid")
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        pass
    start = holder.get("start")
    now = _start_ticks(pid)
    return start is None or now is None or now == start


def _read(path: Path) -> dict | None:
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return {}  # unreadable: a holder that left no name is gone
    return data if isinstance(data, dict) else {}


def describe(holder: dict) -> str:
    where = f" on {holder['host']}" if holder.get("host") != socket.gethostname() else ""
    command = f" ({holder['command']})" if holder.get("command") else ""
    return f"pid {holder.get('pid')}{where}{command}"


def holder_of(folder: Path | str) -> dict | None:
    """The live holder of ``folder``'s lock, or None (no lock, or its holder is gone)."""
    holder = _read(Path(folder) / LOCK)
    return holder if holder and _alive(holder) else None


def _take(path: Path, what: str) -> dict | None:
    """Take the lock at ``path``; returns the gone holder it replaced (or None)."""
    me = _me()
    tmp = path.with_name(f"{LOCK}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(me) + "\n")
    try:
        replaced = None
        for _ in range(5):
            try:
                os.link(tmp, path)
                return replaced
            except FileExistsError:
                holder = _read(path)
                if holder is None:
                    continue  # released meanwhile: try again
                if _alive(holder):
                    raise LockError(f"{what} is being written by {describe(holder)}; wait for it "
                                    f"to finish or stop it (its lock: {path})") from None
                # gone: move its lock aside (one process wins the rename), then take ours
                stale = path.with_name(f"{LOCK}.stale.{os.getpid()}")
                try:
                    os.rename(path, stale)
                except FileNotFoundError:
                    continue
                stale.unlink(missing_ok=True)
                replaced = holder
        raise LockError(f"{what}: cannot take its lock {path} (other processes keep taking it)")
    finally:
        tmp.unlink(missing_ok=True)


@contextlib.contextmanager
def hold(folder: Path | str, what: str | None = None) -> Iterator[Held]:
    """Hold ``folder``'s lock for the block (the folder must exist).  ``LockError`` when a
    live process holds it; ``OSError`` when the lock cannot be written."""
    path = Path(folder) / LOCK
    replaced = _take(path, what or str(folder))
    try:
        yield Held(path, replaced)
    finally:
        holder = _read(path)
        if holder and holder.get("pid") == os.getpid():
            path.unlink(missing_ok=True)


def has_content(folder: Path) -> bool:
    """Whether ``folder`` holds anything but a lock (and the lock's temporary files)."""
    return any(not p.name.startswith(LOCK) for p in folder.iterdir())
