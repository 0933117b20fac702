"""The platform's modules import each other in one direction only: read from the source (no import is run), the
graph of module-level imports has no cycle, no import inside a function is left to break one, and the engine's
modules never import the real-time transport's. (The games and the SDK import nothing of the platform:
``tests/test_rules_are_pure.py``.)"""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLATFORM = ROOT / "platform"

# The real-time transport is its own package (realtime/): the engine (turnengine/) never imports it.
# Where an import inside a function is the right place: an app config's ready() (Django's documented place for
# signal handlers and start-up wiring), and the server launcher, which imports the site only once Django is set up.
LATE_IMPORTS_ALLOWED = {"tapete.serve"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PLATFORM).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {
    module_name(path): path for path in sorted(PLATFORM.rglob("*.py")) if "migrations" not in path.parts
}


def project_module(name: str) -> str | None:
    """The platform module ``name`` (a module, or a name inside one) refers to, if any."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in MODULES:
            return candidate
    return None


def imports(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    else:
        return set()
    return {found for found in map(project_module, names) if found is not None}


def module_level_imports(tree: ast.Module) -> list[ast.AST]:
    """Imports that run when the module is imported: at its top level, in a top-level ``if`` or ``try``."""
    found, pending = [], list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, (ast.If, ast.Try)):
            pending += [
                *node.body,
                *node.orelse,
                *getattr(node, "finalbody", []),
                *getattr(node, "handlers", []),
            ]
        elif isinstance(node, ast.ExceptHandler):
            pending += node.body
    return found


def graph() -> tuple[dict[str, set[str]], list[str]]:
    """Module -> the platform modules it imports at module level; and every import inside a function."""
    edges, late = {}, []
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text())
        top = module_level_imports(tree)
        edges[name] = set().union(*map(imports, top)) - {name}
        top_ids = {id(node) for node in top}
        for node in ast.walk(tree):
            if id(node) not in top_ids and imports(node) - {name}:
                late.append((name, path.name, node.lineno))
    return edges, late


def in_ready(path: Path, line: int) -> bool:
    tree = ast.parse(path.read_text())
    return any(
        isinstance(node, ast.FunctionDef) and node.name == "ready" and node.lineno <= line <= node.end_lineno
        for node in ast.walk(tree)
    )


def test_the_module_level_imports_have_no_cycle():
    edges, _late = graph()
    try:
        tuple(TopologicalSorter(edges).static_order())
    except CycleError as error:
        raise AssertionError(f"import cycle: {' -> '.join(error.args[1])}") from None


def test_no_import_inside_a_function_but_in_an_app_configs_ready_and_the_launcher():
    _edges, late = graph()
    left = [
        f"{name}:{line}"
        for name, filename, line in late
        if name not in LATE_IMPORTS_ALLOWED and not (filename == "apps.py" and in_ready(MODULES[name], line))
    ]
    assert left == []


def test_the_engine_never_imports_the_transport():
    edges, _late = graph()
    engine = [name for name in MODULES if name.split(".")[0] == "turnengine"]
    upward = {
        name: sorted(found for found in edges[name] if found.split(".")[0] == "realtime")
        for name in sorted(engine)
    }
    upward = {name: found for name, found in upward.items() if found}
    # (The transport's app config installs its sender into the engine's outbox when the site starts.)
    assert upward == {}
