"""Compiled kernels (numba): dealing, the exact solver, the play-out loops.  No I/O, no RNG.

Compiled code is cached on disk.  Numba checks a cached function only against its
own source file, not the kernels it calls from other files, so a cache could
outlive an edit elsewhere; the cache therefore lives in a directory named after a
hash of all kernel sources.  It is the ignored ``build/numba-cache`` of a source
checkout, or the user's cache directory for an installed package; ``NUMBA_CACHE_DIR``
overrides both.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def _cache_dir() -> Path | None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for source in sorted(here.glob("*.py")):
        digest.update(source.read_bytes())
    checkout = here.parent.parent
    if (checkout / "pyproject.toml").exists() and os.access(checkout, os.W_OK):
        root = checkout / "build" / "numba-cache"
    else:
        root = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "golfstats" / "numba"
    return root / digest.hexdigest()[:16]


def _configure_cache() -> None:
    path = _cache_dir()
    if path is None:
        return
    import numba

    numba.config.CACHE_DIR = str(path)


_configure_cache()
