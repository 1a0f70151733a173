"""The memory budget of perfect play without peeking, and the process's resident set.

``max_bytes`` is the budget of the kernel's tables (``DEFAULT_MAX_BYTES`` unless given);
a process budget (``process_bytes``) gives the tables what the process does not already
hold (``resident()``: the interpreter, numpy, numba, polars and the compiled kernels,
loaded first by ``odds.load_kernels``).  Each value carries the process's measured peak
resident set during its computation (Linux's VmHWM, reset before it by ``reset_peak``
where the system allows; else the process's peak so far), beside the kernel's own count
of its tables' bytes (``Stats.peak_bytes``).  The W pass stops as soon as its rows are
over the budget; reach's rows are checked after their pass, which alone can hold more
than the budget before the deal is reported unresolved.
"""

from __future__ import annotations

import re

#: Default memory budget of one computation's long pass (goals win: the value pass, sized
#: before it starts; goal strokes: its state list, then its values, sized once the list is
#: whole).  A computation over it is unresolved.
DEFAULT_MAX_BYTES = 4_000_000_000


def resident() -> tuple[int, int]:
    """(the process's resident set now, its peak), in bytes: /proc/self/status's VmRSS and
    VmHWM; where there is no /proc, the peak (``resource``'s ru_maxrss) for both."""
    try:
        text = open("/proc/self/status").read()
        now = re.search(r"VmRSS:\s+(\d+) kB", text)
        peak = re.search(r"VmHWM:\s+(\d+) kB", text)
        if now and peak:
            return int(now.group(1)) * 1024, int(peak.group(1)) * 1024
    except OSError:
        pass
    import resource as _resource

    peak = _resource.getrusage(_resource.RUSAGE_SELF).ru_maxrss * 1024
    return peak, peak


def reset_peak() -> None:
    """Start the peak resident set afresh (Linux: "5" to /proc/self/clear_refs)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
