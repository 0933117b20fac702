"""The platform's modules import each other in one direction only, read from the source (no import is run): the
graph of module-level imports has no cycle, no import inside a function is left to break one, and every import goes
down the layers below (the games and the SDK, under them all, import nothing of the platform:
``tests/test_rules_are_pure.py``).

The layers, bottom to top, each a package of ``platform/``:

* ``web``: what every app's pages share (request parameters, HTTP limits, admin base classes, queries compiled once);
* ``ratings`` (Elo), then ``turnengine`` (the engine: the one writer of matches, clocks, bots, the outbox);
* ``accounts`` (sign-up, guests), then ``moderation`` (sanctions, reports, a moderator's actions on matches);
* ``realtime`` (the transport: sockets, broadcast, delivery);
* ``lobby`` (tables before they start), then ``social`` (follows, friends, blocks, invitations), then ``botapi``
  (outside programs, analysis), then ``tournaments`` (scheduled events that start tables through the lobby);
* ``tapete``, the site: settings, URLs, the ASGI and Celery wiring. Nothing imports it.

A module imports its own package and the packages below, with no exemption: not for admin pages, views, log-in
forms or models. An upper layer that must act inside a lower one installs itself at start-up, in its app config's
``ready()``: the transport its sender in the engine's outbox; moderation its mute check in the engine's chat, the
reason a sanctioned player is refused in the log-in form, and its admin pages of the other apps' models; the Bot
API its answer to "is this account a program?" in the lobby; the social app its block check in the engine's seats,
whose chat each reader's sockets drop, and what to forget with a dead server's life.
"""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLATFORM = ROOT / "platform"

LAYERS = [
    "web", "ratings", "turnengine", "accounts", "alerts", "moderation", "realtime", "lobby", "social", "botapi",
    "tournaments", "tapete",
]
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


def upward_imports(edges: dict[str, set[str]]) -> list[str]:
    """Every import of ``edges`` that does not go down the layers (module docstring)."""
    wrong = []
    for name, found in sorted(edges.items()):
        package = name.split(".")[0]
        for target in sorted(found):
            below = target.split(".")[0]
            if below == package:
                continue
            if package == "web" or below == "tapete":
                wrong.append(f"{name} -> {target}")
            elif below != "web" and package != "tapete" and LAYERS.index(below) > LAYERS.index(package):
                wrong.append(f"{name} -> {target}")
    return wrong


def test_every_package_is_in_a_layer():
    assert {name.split(".")[0] for name in MODULES} == set(LAYERS)


def test_every_import_goes_down_the_layers():
    edges, _late = graph()
    assert upward_imports(edges) == []


def test_an_upward_import_is_caught():
    edges, _late = graph()
    engine_to_lobby = {**edges, "turnengine.timing": edges["turnengine.timing"] | {"lobby.errors"}}
    assert upward_imports(engine_to_lobby) == ["turnengine.timing -> lobby.errors"]
    into_the_site = {**edges, "lobby.views": edges["lobby.views"] | {"tapete.settings"}}
    assert upward_imports(into_the_site) == ["lobby.views -> tapete.settings"]
    helpers_up = {**edges, "web.params": edges["web.params"] | {"accounts.models"}}
    assert upward_imports(helpers_up) == ["web.params -> accounts.models"]
    # No exemption: neither an app's models nor its admin, views or log-in forms cross the layers upwards.
    assert upward_imports({"turnengine.writer": {"moderation.models"}, "ratings.admin": {"moderation.admin"}}) == [
        "ratings.admin -> moderation.admin",
        "turnengine.writer -> moderation.models",
    ]
    assert upward_imports({"lobby.views": {"botapi.models"}}) == ["lobby.views -> botapi.models"]
    assert upward_imports({"realtime.broadcast": {"lobby.services"}}) == ["realtime.broadcast -> lobby.services"]


def test_no_platform_module_imports_a_benchmark():
    found = []
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found += [f"{name}: {alias.name}" for alias in node.names if alias.name.split(".")[0] == "bench"]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "bench":
                found.append(f"{name}: {node.module}")
    assert found == []
