"""The package's modules import each other without a circle (issue 16). Imports inside functions count too: a
lazy import is kept for loading cost only (OpenCV, Textual), never to dodge a circle. Imports only for type
checking (under `if TYPE_CHECKING:`) and a module's own enclosing packages (loaded first anyway) do not count."""

from __future__ import annotations

import ast
from pathlib import Path

import doodle

ROOT = Path(doodle.__file__).parent


def _module_name(path: Path) -> str:
    parts = ("doodle", *path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imported(node: ast.AST) -> set[str]:
    """The package modules that `node` and everything under it import (type-checking blocks left out)."""
    if _type_checking_only(node):
        return set()
    names: set[str] = set()
    if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("doodle"):
        names.add(node.module)
        names.update(f"{node.module}.{alias.name}" for alias in node.names)
    elif isinstance(node, ast.Import):
        names.update(alias.name for alias in node.names if alias.name.startswith("doodle"))
    for child in ast.iter_child_nodes(node):
        names |= _imported(child)
    return names


def _import_graph() -> dict[str, set[str]]:
    """Each module of the package and the package modules it imports, at load time or later."""
    found = {_module_name(path): _imported(ast.parse(path.read_text(encoding="utf-8"))) for path in ROOT.rglob("*.py")}
    return {
        module: {name for name in names if name in found and name != module and not module.startswith(f"{name}.")}
        for module, names in found.items()
    }


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        path.append(module)
        for name in sorted(graph[module]):
            if state.get(name) == 1:
                cycles.append([*path[path.index(name):], name])
            elif name not in state:
                visit(name, path)
        path.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [])
    return cycles


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_inside_the_package() -> None:
    graph = _import_graph()
    assert "doodle.patchwork.game" in graph and graph["doodle.patchwork.game"]  # the graph was read
    assert _cycles(graph) == []
