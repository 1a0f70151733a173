"""The honest value pass's two layers of p in files, for a position whose layers do not fit
in the memory budget (``honest.solve.solve_win``'s ``layers``).

Each layer is a temporary file (unlinked at once, so nothing is left behind) mapped
shared into memory: the kernel reads and writes it as an array, pages it hands back
(``madvise``) leave memory and keep their values (the system writes them to the file and
reads them again when the next step reads the layer in order), and ``clear`` empties the
file (truncated to nothing and back, so it reads 0 and its disk blocks are freed).  The
files live in the system's temporary directory (``TMPDIR``).
"""

from __future__ import annotations

import mmap
import os
import shutil
import tempfile

import numpy as np


class LayerFiles:
    """Two float64 arrays of ``n_values`` zeros, each a shared mapping of its own
    temporary file in ``directory`` (the system's temporary directory by default).
    Raises ``OSError`` when the directory cannot hold the two layers at once."""

    def __init__(self, n_values: int, directory: str | None = None):
        where = directory or tempfile.gettempdir()
        self._bytes = max(int(n_values), 1) * 8
        free = shutil.disk_usage(where).free
        if free < 2 * self._bytes:
            raise OSError(f"{where} has {free / 1e9:.1f} GB free; the layers of p need "
                          f"up to {2 * self._bytes / 1e9:.1f} GB there")
        self._files = [tempfile.TemporaryFile(dir=where) for _ in range(2)]
        self.pair = []
        for f in self._files:
            os.ftruncate(f.fileno(), self._bytes)
            self.pair.append(np.frombuffer(mmap.mmap(f.fileno(), self._bytes), np.float64))

    def clear(self, i: int) -> None:
        """Make ``pair[i]`` read 0 everywhere again, handing back its pages and blocks."""
        fd = self._files[i].fileno()
        os.ftruncate(fd, 0)
        os.ftruncate(fd, self._bytes)
