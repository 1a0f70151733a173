"""Files that appear whole or not at all: the one atomic writer of every file golfstats
keeps (run.json, parts, summary.parquet, the study's ledger and outputs, charts).

``write_atomic(path, write)`` lets ``write(tmp)`` fill a temporary file beside ``path``
(``.NAME.PID.SUFFIX.tmp``, in the same folder, so the rename cannot cross file systems),
then renames it over ``path``; ``write_text``, ``write_bytes``, ``write_json`` (indented,
as run.json and the study's outputs are), ``write_parquet`` and ``write_csv`` (a polars
frame, its writer's options passed on) are the writers every module uses. A failure
anywhere (a full disk, a vanished folder, an interrupt) removes the temporary file and
raises: ``path`` is then either its old self or absent, never a partial file that looks
whole. ``sha256_of`` is the digest the run folder and the ledger record of what they hold.
No imports beyond the standard library.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path

#: Every temporary name ends so (``.gitignore`` and ``runs.write.remove_temporaries``).
TMP = ".tmp"


def temporary_name(path: Path) -> Path:
    """Where ``path`` is written before its rename: ``.part-000003.4242.parquet.tmp``."""
    path = Path(path)
    return path.with_name(f".{path.stem}.{os.getpid()}{path.suffix}{TMP}")


def write_atomic(path: Path | str, write: Callable[[Path], None]) -> Path:
    """Write ``path`` through ``write(tmp)`` and a rename; returns ``path``."""
    path = Path(path)
    tmp = temporary_name(path)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return path


def write_text(path: Path | str, text: str) -> Path:
    return write_atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def write_bytes(path: Path | str, data: bytes) -> Path:
    return write_atomic(path, lambda tmp: tmp.write_bytes(data))


def write_json(path: Path | str, data) -> Path:
    """``data`` as JSON indented by two, one newline at the end (run.json, study.json)."""
    return write_text(path, json.dumps(data, indent=2) + "\n")


def write_parquet(path: Path | str, frame, **options) -> Path:
    """A polars ``frame`` as Parquet; ``options`` go to ``DataFrame.write_parquet``."""
    return write_atomic(path, lambda tmp: frame.write_parquet(tmp, **options))


def write_csv(path: Path | str, frame, **options) -> Path:
    """A polars ``frame`` as CSV; ``options`` go to ``DataFrame.write_csv``."""
    return write_atomic(path, lambda tmp: frame.write_csv(tmp, **options))


def sha256_of(path: Path | str) -> str:
    """The hex sha256 of the file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
