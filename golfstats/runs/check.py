"""A run folder's parts and summary checked against its run.json, before any reader
believes a figure of them (``runs.read.load_run``).

``golfstats simulate`` records in run.json, as each part is written, the part's name, its
deals and rows, its size and the sha256 of its bytes (``parts``), and the summary's size
and sha256 (``summary``).  ``check_run`` holds the folder to that record: a part run.json
records that is missing, of another size or of other bytes, a part file it does not
record, or a summary that is not the one written, is a ``RunError`` of one line naming
the file, with the command that plays it again (``simulate --out DIR --resume``).

Folders written before run.json kept digests (no ``parts``) are read as before, with two
checks they allow: a complete run holds one part per chunk run.json counts (the first
missing one named), and each part is readable (the first unreadable one named).
``simulate --out DIR --resume`` on such a folder records its digests (it seals it).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from golfstats.atomic import sha256_of
from golfstats.runs.errors import RunError, why
from golfstats.runs.schema import DEALS_DIR, SUMMARY, part_name


def replay_hint(path: Path) -> str:
    return f"`golfstats simulate --out {path} --resume` plays it again"


def sealed(info: dict) -> bool:
    """Whether run.json records its parts' digests."""
    return isinstance(info.get("parts"), dict)


def check_run(path: Path, info: dict, deal_files: tuple[Path, ...]) -> None:
    """Raise ``RunError`` (one line) when the folder is not what run.json says it holds."""
    if not sealed(info):
        _check_legacy(path, info, deal_files)
        return
    parts: dict = info["parts"]
    for name in sorted(parts):
        problem = _part_problem(path / DEALS_DIR / name, parts[name])
        if problem:
            if problem == "is missing":
                problem += f" (run.json records {len(parts)} parts)"
            raise RunError(f"{path}: {DEALS_DIR}/{name} {problem}; {replay_hint(path)}")
    extra = sorted(f.name for f in deal_files if f.name not in parts)
    if extra:
        more = f" and {len(extra) - 1} more" if len(extra) > 1 else ""
        raise RunError(f"{path}: {DEALS_DIR}/{extra[0]}{more} not recorded in run.json; "
                       f"`golfstats simulate --out {path} --resume` checks and records it")
    chunks = info.get("chunks")
    if info.get("status") == "complete" and isinstance(chunks, int) and len(parts) != chunks:
        missing = next(part_name(i) for i in range(chunks) if part_name(i) not in parts)
        raise RunError(f"{path}: {DEALS_DIR}/{missing} is not recorded in run.json of a complete "
                       f"run of {chunks} parts; {replay_hint(path)}")
    summary = info.get("summary")
    if isinstance(summary, dict) and (path / SUMMARY).is_file():
        problem = _file_problem(path / SUMMARY, summary)
        if problem:
            raise RunError(f"{path}: {SUMMARY} {problem}; `golfstats simulate --out {path} "
                           "--resume` makes it again from the parts")


def _file_problem(file: Path, record: dict) -> str:
    """Why ``file`` is not the one ``record`` describes ("" when it is)."""
    try:
        size = file.stat().st_size
    except FileNotFoundError:
        return "is missing"
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if size != record.get("bytes"):
        return (f"is truncated or altered: {size:,} bytes, run.json records "
                f"{record.get('bytes', 0):,}")
    try:
        digest = sha256_of(file)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if digest != record.get("sha256"):
        return "is altered: its sha256 is not the one run.json records"
    return ""


def _part_problem(file: Path, record: dict) -> str:
    return _file_problem(file, record) if isinstance(record, dict) else "has no record in run.json"


def _check_legacy(path: Path, info: dict, deal_files: tuple[Path, ...]) -> None:
    chunks = info.get("chunks")
    names = {f.name for f in deal_files}
    if info.get("status") == "complete" and isinstance(chunks, int) and len(names) < chunks:
        missing = next(part_name(i) for i in range(chunks) if part_name(i) not in names)
        raise RunError(f"{path}: {DEALS_DIR}/{missing} is missing (run.json counts {chunks} "
                       f"parts); {replay_hint(path)}")
    for file in deal_files:
        try:
            pl.read_parquet_schema(file)
        except (OSError, pl.exceptions.PolarsError) as exc:
            raise RunError(f"{path}: {DEALS_DIR}/{file.name} cannot be read ({why(exc)}); "
                           f"{replay_hint(path)}") from None
