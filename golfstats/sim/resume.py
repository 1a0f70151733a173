"""The settings of a run to resume, read from its ``run.json``.

A resumed run must make the rows its parts were made with, so what fixes them (the rule
set, n, the seed, the policies, the goal and the chunk size) is the run's.  A caller
gives again only what it wants checked: ``resumed`` takes the stored value of every
setting left out, and refuses one given with another value (``SettingError``, naming
the setting).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING

from golfstats.goals import Goal
from golfstats.locks import has_content
from golfstats.runs.schema import RUN_JSON
from golfstats.sim.plan import SimError

if TYPE_CHECKING:
    from golfstats.policies import Policy
    from golfstats.rules import Rules


class SettingError(SimError):
    """A setting given for a resumed run that is not the run's (a usage error)."""


@dataclass(frozen=True)
class Settings:
    """What fixes a run's rows; None where not given."""

    rules: Rules | None = None
    policies: tuple[Policy, ...] | None = None
    n: int | None = None
    seed: int | None = None
    goal: Goal | None = None
    chunk_size: int | None = None


def _shown(name: str, value) -> str:
    if name == "rules":
        return value.id
    if name == "policies":
        return ", ".join(p.spec for p in value)
    return str(value)


_NAMES = {"rules": "variant", "policies": "policies", "n": "n", "seed": "seed", "goal": "goal",
          "chunk_size": "chunk size"}


def stored_settings(run_dir: Path) -> Settings | None:
    """The settings recorded in ``run_dir/run.json``; None when there is no run to resume
    (no folder, or an empty one).  ``SimError`` when the folder holds something else or
    its run.json cannot be read."""
    from golfstats.policies import PolicyError, policies_from_names
    from golfstats.rules import RulesError, parse_variant

    run_json = run_dir / RUN_JSON
    if not run_dir.is_dir() or not has_content(run_dir):
        return None
    if not run_json.is_file():
        raise SimError(f"--resume: {run_dir} is not a golfstats run (no {RUN_JSON})")
    try:
        stored = json.loads(run_json.read_text())
        identity = stored["identity"]
        return Settings(rules=parse_variant(identity["variant"]),
                        policies=policies_from_names(identity["policies"]), n=int(identity["n"]),
                        seed=int(identity["seed"]), goal=Goal(identity["goal"]),
                        chunk_size=int(stored["chunk_size"]))
    except (OSError, ValueError, KeyError, TypeError, RulesError, PolicyError) as exc:
        if isinstance(exc, OSError):
            why = exc.strerror or str(exc)
        elif isinstance(exc, KeyError):
            why = f"it has no {exc}"
        else:
            why = str(exc)
        raise SimError(f"--resume: cannot read the run's settings from {run_json} ({why})") from None


def resumed(stored: Settings, given: Settings, run_dir: Path) -> Settings:
    """``stored`` checked against every setting of ``given`` that is not None.  Policies
    given in another order are the same run (the stored order is kept)."""
    for f in fields(Settings):
        mine, theirs = getattr(given, f.name), getattr(stored, f.name)
        if mine is None:
            continue
        if f.name == "rules":
            same = mine.id == theirs.id
        elif f.name == "policies":
            same = sorted(p.spec for p in mine) == sorted(p.spec for p in theirs)
        else:
            same = mine == theirs
        if not same:
            name = _NAMES[f.name]
            raise SettingError(
                f"--resume: the run in {run_dir} has {name} {_shown(f.name, theirs)}, not "
                f"{_shown(f.name, mine)}; leave {name} out to take the run's")
    return replace(stored)
