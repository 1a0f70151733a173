"""The package's shape (docs/architecture.md): no import cycle counting every import
statement (lazy ones inside functions included), no module over 400 lines, and no policy
named by a string literal in a comparison outside ``golfstats/policies/``."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "golfstats"


def _modules() -> dict[str, Path]:
    mods = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = path
    return mods


def _imports(name: str, path: Path, mods: dict[str, Path]) -> set[str]:
    """Every golfstats module ``name`` imports, anywhere in its file."""
    base = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            src = node.module or ""
            if node.level:
                pkg = base
                for _ in range(node.level - 1):
                    pkg = pkg.rpartition(".")[0]
                src = pkg + ("." + node.module if node.module else "")
            targets = [src] + [f"{src}.{a.name}" for a in node.names]
        for target in targets:
            while target and target not in mods:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(v: str) -> list[str] | None:
        state[v] = 1
        stack.append(v)
        for w in sorted(graph[v]):
            if state.get(w) == 1:
                return stack[stack.index(w):] + [w]
            if w not in state and (found := visit(w)):
                return found
        stack.pop()
        state[v] = 2
        return None

    for v in sorted(graph):
        if v not in state and (found := visit(v)):
            return found
    return None


def test_no_import_cycle_anywhere():
    mods = _modules()
    graph = {name: _imports(name, path, mods) for name, path in mods.items()}
    # a package's __init__ importing its own submodules is how it re-exports them
    for name in graph:
        graph[name] = {t for t in graph[name] if not t.startswith(name + ".")}
    assert _cycle(graph) is None, " -> ".join(_cycle(graph))


def test_no_module_over_400_lines():
    long = {str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > 400}
    assert not long


def test_no_policy_name_compared_outside_the_registry():
    from golfstats.policies import REGISTRY

    found = []
    for path in PACKAGE.rglob("*.py"):
        if "policies" in path.relative_to(PACKAGE).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare):
                for side in (node.left, *node.comparators):
                    if isinstance(side, ast.Constant) and side.value in REGISTRY:
                        found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {side.value!r}")
    assert not found



def test_production_code_does_not_import_the_twins():
    """``golfstats.reference`` holds the tests' oracles: only it imports itself, so an
    ``import golfstats.policies`` loads no reference module."""
    mods = _modules()
    bad = sorted(name for name, path in mods.items() if not name.startswith("golfstats.reference")
                 and any(t.startswith("golfstats.reference") for t in _imports(name, path, mods)))
    assert not bad


def test_every_registered_policy_has_its_twin():
    from golfstats.policies import REGISTRY
    from golfstats.reference.twins import TWINS

    assert set(TWINS) == set(REGISTRY)


# ---------------------------------------------------------------- one vocabulary
# Each word below is declared once (docs/architecture.md): these tests find a second
# declaration anywhere in the package.

def _module_assignments(path: Path):
    """``(name, value node, line)`` of every module-level assignment in ``path``."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        yield name.id, node.value, node.lineno
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
            yield node.target.id, node.value, node.lineno


def _strings(node: ast.AST) -> list[str]:
    """The string constants of a constant or of a tuple or list of them (else [])."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List):
        items = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        return items if len(items) == len(node.elts) else []
    return []


def _where(path: Path, line: int) -> str:
    return f"{path.relative_to(PACKAGE)}:{line}"


def test_start_and_columns_declared_once():
    """``COLUMNS`` only in ``kernels.constants`` (from ``rules.GOLF_LAYOUT``); a start only
    as ``rules.Start`` (no start string compared or mapped elsewhere)."""
    from golfstats.rules import Start

    found = []
    for path in PACKAGE.rglob("*.py"):
        rel = str(path.relative_to(PACKAGE))
        for name, _, line in _module_assignments(path):
            if name == "COLUMNS" and rel != "kernels/constants.py":
                found.append(_where(path, line))
        if rel == "rules.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare | ast.Dict):
                sides = ((node.left, *node.comparators) if isinstance(node, ast.Compare)
                         else node.keys)
                if any(isinstance(s, ast.Constant) and s.value in set(Start) for s in sides):
                    found.append(_where(path, node.lineno))
    assert not found


def test_plain_king_rules_only_in_rules():
    """The three plain king rules are ``rules.PLAIN_KING_RULES``: no other tuple or list
    spells them."""
    from golfstats.rules import PLAIN_KING_RULES

    found = [_where(path, line) for path in PACKAGE.rglob("*.py")
             for _, value, line in _module_assignments(path)
             if set(_strings(value)) == set(PLAIN_KING_RULES)]
    assert not found


def test_roles_only_in_the_registry():
    """A player's role (the par reference, the clairvoyant optimum, the fallback, the
    ladder...) is declared in ``policies.roles`` alone, and each names registered policies:
    no other module assigns a role's name, or a policy's name (or a tuple of them) to a
    module constant."""
    from golfstats.policies import REGISTRY, parse_policy, roles

    names = {n for n in vars(roles) if n.isupper()}
    for name in names:
        value = getattr(roles, name)
        for spec in (value,) if isinstance(value, str) else value:
            parse_policy(spec)
    found = []
    for path in PACKAGE.rglob("*.py"):
        if path.relative_to(PACKAGE).parts == ("policies", "roles.py"):
            continue
        for name, value, line in _module_assignments(path):
            strings = _strings(value)
            if name in names or (strings and all(s.partition(":")[0] in REGISTRY for s in strings)):
                found.append(f"{_where(path, line)} {name}")
    assert not found


def test_one_atomic_writer():
    """Files are written through ``golfstats.atomic`` alone: no other module calls a
    polars writer or renames a file over another (``locks.py`` links and renames its own
    lock files, which is how a lock is taken)."""
    writers = {"write_parquet", "write_csv", "write_ipc", "write_json", "sink_parquet"}
    found = []
    for path in PACKAGE.rglob("*.py"):
        rel = str(path.relative_to(PACKAGE))
        if rel == "atomic.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr in writers | {"replace", "rename"}:
                is_os = isinstance(node.value, ast.Name) and node.value.id == "os"
                if node.attr in writers or (is_os and rel != "locks.py"):
                    found.append(f"{_where(path, node.lineno)} .{node.attr}")
    assert not found


# ---------------------------------------------------------------- perfect play without peeking

#: The kernels' coordinates of a position: the honest package's ``Table`` alone turns an
#: engine ``Position`` into them.
KERNEL_COORDINATES = {"play_next", "heights", "top_id", "exposed", "kt", "pwd", "m0"}


def test_honest_front_speaks_the_engines_terms():
    """``review``, the hint and the play-outs ask the ``Table`` about engine positions:
    they import no kernel and name no kernel coordinate."""
    mods = _modules()
    found = []
    for name in ("golfstats.honest.review", "golfstats.honest.hint", "golfstats.honest.optimal"):
        path = mods[name]
        tree = ast.parse(path.read_text())
        named = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        named |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        found += [f"{name}: {word}" for word in sorted(named & KERNEL_COORDINATES)]
        lazy_ok = name == "golfstats.honest.optimal"  # (compiled_entries names them for is_cached)
        found += [f"{name} imports {t}" for t in _imports(name, path, mods)
                  if t.startswith("golfstats.kernels") and not lazy_ok]
    assert not found


def test_callers_never_reach_past_the_honest_package():
    """Outside ``golfstats/honest/`` (and the kernels themselves) nothing imports
    ``kernels.honest``: the package is the face of its compiled insides."""
    mods = _modules()
    bad = sorted(f"{name} -> {t}" for name, path in mods.items()
                 if not name.startswith(("golfstats.honest", "golfstats.kernels"))
                 for t in _imports(name, path, mods) if t.startswith("golfstats.kernels.honest"))
    assert not bad


def test_a_goal_is_typed_goal():
    """A goal travels as ``goals.Goal`` through policies, runs and positions: no parameter
    or field named ``goal`` is annotated ``str`` or defaults to a goal's string (a string
    becomes a ``Goal`` where it comes in: the CLI, run.json)."""
    from golfstats.goals import Goal

    found = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            named = []
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                a = node.args
                positional = a.posonlyargs + a.args
                defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
                named = [(arg, d) for arg, d in zip(positional + a.kwonlyargs,
                                                    defaults + list(a.kw_defaults), strict=True)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                named = [(ast.arg(node.target.id, node.annotation), node.value)]
            for arg, default in named:
                if arg.arg != "goal":
                    continue
                annotation = ast.unparse(arg.annotation) if arg.annotation else ""
                if annotation.replace(" ", "") in ("str", "str|None", "Optional[str]") or (
                        isinstance(default, ast.Constant) and default.value in set(Goal)):
                    found.append(f"{_where(path, node.lineno)} {annotation or default.value}")
    assert not found


# ---------------------------------------------------------------- functions that read like sentences
#: The longest function and the most arguments a function outside ``cli/`` takes (a typer
#: command's options are its arguments, each documented in its help).
MAX_LINES, MAX_ARGS = 120, 12
#: Functions allowed past them, each with its reason.
_MEET = ("the meet in the middle's stages take their tables flat: with them bundled (Dealt, "
         "Forward, Backward) the exact solver on putt-putt, PySolFC 1-1000, ran 4-12% slower "
         "(benchmarks/README.md, 2026-12-07)")
_FLAT = ("the honest value pass's chain DP takes its arrays flat: with them bundled (Root, "
         "Codes, Chain, Scratch) the value pass on strict, PySolFC 4-10, ran 6-10% slower, "
         "side by side (benchmarks/README.md, 2026-12-07)")
_REACH = ("the reach pass's loop over heights stays one function: split into helpers taking "
          "its bundles it ran 7-11% slower on strict, PySolFC 4-10, side by side "
          "(benchmarks/README.md, 2026-12-07); "
          "its three steps are headed in it")
EXCEPTIONS: dict[str, str] = {
    "kernels/honest/winp.py:_block_dp": _FLAT,
    "kernels/honest/reach.py:reach_sets": _REACH,
    "kernels/golf/meet.py:_question": _MEET,
    "kernels/golf/meet.py:_line": _MEET,
    "kernels/golf/meet_backward.py:backward_stage": _MEET,
    "kernels/golf/meet_forward.py:forward_to_end": _MEET,
    "kernels/golf/meet_trace.py:trace_backward": _MEET,
}


def _functions():
    """``(key, lines, arguments)`` of every function of the package, ``key`` as
    ``path:name`` (arguments not counted under ``cli/``)."""
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                a = node.args
                n_args = 0 if rel.startswith("cli/") else (
                    len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs))
                yield f"{rel}:{node.name}", node.end_lineno - node.lineno + 1, n_args


def test_functions_are_short_and_take_few_arguments():
    """No function over ``MAX_LINES`` lines or ``MAX_ARGS`` arguments but the named
    exceptions, and every exception is still one."""
    over = {key: f"{lines} lines, {n_args} arguments" for key, lines, n_args in _functions()
            if lines > MAX_LINES or n_args > MAX_ARGS}
    assert {k: v for k, v in over.items() if k not in EXCEPTIONS} == {}
    assert set(EXCEPTIONS) <= set(over), "an exception that is no longer needed"
