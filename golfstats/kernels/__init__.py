"""Compiled kernels (numba): dealing, the exact solvers, the play-out loops.  No I/O.

Every kernel is a pure function of the arrays it is given (tables, dealt cards, an
``out`` array); randomness comes in as a per-deal key (``kernels.players.rng``).  The shared
constants live in the numba-free ``kernels.constants`` and the small shared functions
in ``kernels.core``.

Compiled code is cached on disk.  Numba checks a cached function only against its
own source file, not the kernels it calls from other files, so a cache could
outlive an edit elsewhere; the cache therefore lives in a directory named after a
hash of all kernel sources (and of the few modules outside kernels/ they compile
from).  It is the ignored ``build/numba-cache`` of a source
checkout, or the user's cache directory for an installed package; ``NUMBA_CACHE_DIR``
overrides both.  Importing this package does not import numba: the directory is
handed to numba through its environment variable when numba is not loaded yet.
``is_cached`` tells whether a compiled function is in that cache (a first run compiles:
the CLI says so and how long it takes).
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

_OWN_CACHE = "GOLFSTATS_NUMBA_CACHE"  # set when the directory below was chosen here
#: Modules outside kernels/ that compiled code reads (card arithmetic, goals, the start
#: codes and golf's columns of the rules, scoring).
_COMPILED_FROM = ("cards.py", "goals.py", "rules.py", "scoring.py")


def _cache_dir() -> Path:
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    # every file below kernels/ (subpackages too), and the modules outside it whose
    # functions or constants the kernels compile in
    outside = [here.parent / name for name in _COMPILED_FROM]
    for source in sorted(here.rglob("*.py")) + outside:
        digest.update(str(source.relative_to(here.parent)).encode())
        digest.update(source.read_bytes())
    checkout = here.parent.parent
    if (checkout / "pyproject.toml").exists() and os.access(checkout, os.W_OK):
        root = checkout / "build" / "numba-cache"
    else:
        root = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "golfstats" / "numba"
    return root / digest.hexdigest()[:16]


def _configure_cache() -> None:
    user_set = os.environ.get("NUMBA_CACHE_DIR") and not os.environ.get(_OWN_CACHE)
    if user_set:
        return
    path = str(_cache_dir())
    os.environ["NUMBA_CACHE_DIR"] = path  # read by numba at import, and by spawned workers
    os.environ[_OWN_CACHE] = path
    if "numba" in sys.modules:
        sys.modules["numba"].config.CACHE_DIR = path


_configure_cache()


def is_cached(function) -> bool | None:
    """Whether ``function`` (a ``numba.njit(cache=True)`` dispatcher) is compiled in this
    process or in numba's on-disk cache for its current source: True or False, None when
    this numba version does not tell (the check reads numba's cache index, an internal)."""
    if function.signatures:
        return True
    try:
        return bool(function._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - another numba's internals: unknown, not cold
        return None
