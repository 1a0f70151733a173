"""The committed study (``golfstats study``): every rule set x every kind of player, in
``results/``.  ``study.plan`` sizes it, ``study.run`` runs it (resumable: every run is
reused, resumed or made by ``golfstats.sim.run_or_reuse``), ``study.outputs`` writes the
summary, tables, charts, page, ``study.json`` and the README (from ``README.md.template``).
"""

from golfstats.study.plan import SAMPLING_VARIANTS, StudyConfig, plan_sizes, required_n
from golfstats.study.run import StudyError, StudyResult, run_study

__all__ = ["SAMPLING_VARIANTS", "StudyConfig", "StudyError", "StudyResult", "plan_sizes",
           "required_n", "run_study"]
