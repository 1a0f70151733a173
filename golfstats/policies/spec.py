"""What a policy is: its registry entry (``PolicyInfo``), its parameters (``Param``) and a
chosen policy with parameter values (``Policy``), parsed from names such as
``lookahead:depth=2``.  No numba or numpy here: the CLI reads this to print help.
"""

from __future__ import annotations

from dataclasses import dataclass

from golfstats.goals import Goal


class PolicyError(ValueError):
    """An unknown policy name or a bad parameter."""


class Strategy:
    """How a policy plays (``policies.strategies`` implements it) for a ``Policy`` under
    ``Rules``:

    * ``play_deals(policy, rules, batch, goal, record_moves) -> dict``: a batch of seeded
      deals (simulations), one array per played column (``runs.schema.PLAYED``) and per
      value column the policy declares;
    * ``play_board(policy, rules, board, key, goal) -> Line``: one board to the end;
    * ``plan(policy, rules, board, key, goal) -> list[int]``: what it does now in one
      position (a chain of plays, maybe then a draw);
    * ``kernels(policy, rules) -> tuple``: its compiled entry points under ``rules``.

    Honest strategies are handed only the visible position: the stock order never
    reaches their decisions.  ``goal`` is a ``goals.Goal`` (parsed where it comes in: the
    CLI, run.json).  ``takes_goal``: the ``goal`` argument means something to it (only
    the clairvoyant solver's; others ignore it, so commands refuse a goal no chosen policy
    takes).
    """

    takes_goal = False

    def play_deals(self, policy, rules, batch, goal: Goal = Goal.STROKES,
                   record_moves=False) -> dict:
        raise NotImplementedError

    def play_board(self, policy, rules, board, key=0, goal: Goal = Goal.STROKES):
        raise NotImplementedError

    def plan(self, policy, rules, board, key=0, goal: Goal = Goal.STROKES) -> list[int]:
        raise NotImplementedError

    def kernels(self, policy, rules) -> tuple:
        """The compiled functions (numba dispatchers) ``play_deals`` calls first under
        ``rules``: what must be compiled, or loaded from numba's cache, before its first
        deal (``golfstats.kernels.is_cached`` tells which)."""
        return ()


@dataclass(frozen=True)
class Param:
    """One parameter of a policy: an integer in ``lo..hi``, or one of ``choices`` (then
    the kernel receives its index in ``choices``)."""

    name: str
    default: int | str
    help: str
    lo: int = 1
    hi: int = 10**6
    choices: tuple[str, ...] = ()

    def parse(self, policy: str, text: str) -> int | str:
        if self.choices:
            if text not in self.choices:
                raise PolicyError(f"parameter {self.name} of {policy} is one of "
                                  f"{', '.join(self.choices)}, not {text!r}")
            return text
        if not text.lstrip("-").isdigit():
            raise PolicyError(f"parameter {self.name} of {policy} needs an integer value, "
                              f"as {self.name}={self.default}")
        if not self.lo <= int(text) <= self.hi:
            raise PolicyError(f"parameter {self.name} of {policy} must be between {self.lo} "
                              f"and {self.hi}")
        return int(text)

    def kernel_value(self, value: int | str) -> int:
        return self.choices.index(value) if self.choices else int(value)

    def describe(self) -> str:
        what = "|".join(self.choices) if self.choices else f"{self.lo}..{self.hi}"
        return f"{self.name}={what} (default {self.default}): {self.help}"


@dataclass(frozen=True, eq=False)
class PolicyInfo:
    """Everything about one registered policy.

    ``strategy`` plays it (a compiled player, the clairvoyant solver, the honest
    optimum); ``params`` are declared in the order the kernel receives them;
    ``honest`` says it decides only from what a player sees; ``chunk_size`` is the
    deals per chunk a simulation uses when this is its slowest policy; ``colour`` and
    ``marker`` style it in every chart (its slow, plain twin, which the tests hold it to,
    is paired with it there: ``golfstats.reference.twins``); ``values`` are the extra deal
    columns it fills (``golfstats.runs.DEAL_SCHEMA``); ``seconds_per_deal`` is the rough
    cost of one whole golf deal on one core at the default parameters (for planners and
    for tests that must stay quick; measured by ``benchmarks/``); ``compile_seconds``
    is how long its kernels take to compile on a cold cache, one core, in golf and in a
    game without a stock (``benchmarks/bench_compile.py``; ``compile_estimate``): what a
    first run announces.
    """

    name: str
    description: str
    strategy: Strategy
    params: tuple[Param, ...] = ()
    honest: bool = True
    chunk_size: int = 250
    colour: str = "#d62728"
    marker: str = "x"
    values: tuple[str, ...] = ()
    seconds_per_deal: float = 0.001
    compile_seconds: tuple[float, float] = (10.0, 10.0)

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def compile_estimate(self, rules) -> float:
        """Seconds to compile this policy's kernels for ``rules`` on a cold cache."""
        return self.compile_seconds[0 if rules.layout.has_stock else 1]

    def help(self) -> str:
        extra = "; ".join(p.describe() for p in self.params)
        return f"{self.name}: {self.description}" + (f" [{extra}]" if extra else "")


#: Every registered policy by name, in display order (filled by ``policies.registry``).
REGISTRY: dict[str, PolicyInfo] = {}


def register(info: PolicyInfo) -> PolicyInfo:
    if info.name in REGISTRY:
        raise ValueError(f"policy {info.name} is registered twice")
    REGISTRY[info.name] = info
    return info


@dataclass(frozen=True)
class Policy:
    """A registered policy with a value for each of its parameters, in declared order."""

    name: str
    values: tuple[int | str, ...] = ()

    @property
    def info(self) -> PolicyInfo:
        return REGISTRY[self.name]

    @property
    def params(self) -> tuple[tuple[str, int | str], ...]:
        return tuple((p.name, v) for p, v in zip(self.info.params, self.values, strict=True))

    @property
    def spec(self) -> str:
        """Canonical name: non-default parameters after a colon, e.g. ``lookahead:depth=2``."""
        extra = [f"{p.name}={v}" for p, v in zip(self.info.params, self.values, strict=True)
                 if v != p.default]
        return self.name + (":" + ",".join(extra) if extra else "")

    def __str__(self) -> str:
        return self.spec

    def param(self, key: str) -> int | str:
        return dict(self.params)[key]

    def kernel_params(self) -> list[int]:
        """The values as the kernel receives them: in declared order, choices as indices."""
        return [p.kernel_value(v) for p, v in zip(self.info.params, self.values, strict=True)]

    @property
    def honest(self) -> bool:
        return self.info.honest


def parse_policy(text: str) -> Policy:
    """``greedy``, ``lookahead:depth=2``, ``sampling:samples=32`` ... -> ``Policy``."""
    name, _, rest = text.strip().lower().partition(":")
    if name not in REGISTRY:
        raise PolicyError(f"unknown policy {name!r}; policies are: " + ", ".join(REGISTRY))
    info = REGISTRY[name]
    values = {p.name: p.default for p in info.params}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        if key not in values:
            known = ", ".join(values) or "none"
            raise PolicyError(f"policy {name} has no parameter {key!r} (parameters: {known})")
        if not eq or not value:
            raise PolicyError(f"parameter {key} of {name} needs a value, as "
                              f"{key}={info.param(key).default}")
        values[key] = info.param(key).parse(name, value)
    return Policy(name, tuple(values[p.name] for p in info.params))


def is_honest(spec: str) -> bool:
    """True for a policy spec whose player does not see the stock order."""
    info = REGISTRY.get(spec.partition(":")[0])
    return bool(info and info.honest)


def policy_order(spec: str) -> tuple[int, str]:
    """Sort key of a policy spec: the registry's order, then the spec."""
    names = list(REGISTRY)
    name = spec.partition(":")[0]
    return (names.index(name) if name in names else len(names), spec)


def style(spec: str) -> tuple[str, str]:
    """Chart colour and marker of a policy spec (unknown policies get a fallback)."""
    info = REGISTRY.get(spec.partition(":")[0])
    return (info.colour, info.marker) if info else ("#d62728", "x")
