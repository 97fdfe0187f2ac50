"""The package layout shows the design: no import cycles inside ``warhost.core`` or
``warhost.sim`` (counting imports made only for type checking or inside functions), and every
command in its own module under ``warhost.commands``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import warhost

ROOT = Path(warhost.__file__).parent


def _imports(path: Path, package: str) -> set[str]:
    """Modules of ``package`` that the file at ``path`` imports, wherever the import stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            if name.startswith(package + ".") and name.count(".") == package.count(".") + 1:
                found.add(name)
    return found


def _graph(package: str) -> dict[str, set[str]]:
    folder = ROOT / package.split(".", 1)[1]
    modules = {f"{package}.{p.stem}": p for p in folder.glob("*.py") if p.stem != "__init__"}
    return {name: _imports(path, package) & set(modules) - {name}
            for name, path in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` as a list of modules, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


@pytest.mark.parametrize("package", ["warhost.core", "warhost.sim"])
def test_no_import_cycles(package: str) -> None:
    graph = _graph(package)
    assert len(graph) >= 5
    assert _cycle(graph) is None


def test_every_command_lives_in_its_own_module() -> None:
    from warhost.cli import app

    commands = {info.name or info.callback.__name__: info.callback
                for info in app.registered_commands if info.callback is not None}
    assert {"battle", "play", "replay", "validate", "schema", "map", "rulesets", "simulate",
            "results", "sweep", "odds"} <= set(commands)
    for name, callback in commands.items():
        module = callback.__module__
        assert module.startswith("warhost.commands."), (name, module)
    cli_source = (ROOT / "cli.py").read_text(encoding="utf-8")
    assert "@app.command" not in cli_source
