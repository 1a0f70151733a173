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
