"""Perfect play without peeking, compiled (``docs/honest-play.md``; the Python front is
``golfstats.honest``).

``space`` the state codes and comparisons; ``wins`` the W bitsets and G rows (rows kept
as their non-zero words: ``packed``; their pages handed back: ``memory``); ``reach``
the states the position reaches (``reachable`` only the heights, for W); ``blocks``
their tables a drawn multiset at a time; ``winp`` the chances of winning; ``policy`` the
policy's expected strokes along its own choices; ``forward`` and ``backward`` goal
strokes' whole state space; ``play`` the play-outs of the ``optimal`` policy; ``solve``
goal strokes' compiled entry and the policy's values (goal win's passes are sequenced by
``golfstats.honest.solve``).  No I/O, no RNG.
"""
