"""The package's shape, read from its source: no import cycle between doodle's modules, and no module reading
another object's private fields (python-chess keeps set_fen on Board for the same reason)."""

import ast
from pathlib import Path

ROOT = Path(__file__).parent.parent
MODULES = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
           for p in (ROOT / "doodle").rglob("*.py")}  # fmt: skip
LAZY = {("doodle.patchwork.game", "doodle.patchwork.display")}  # the import for str(), as chess's _repr_svg_


def imports(module: str) -> set[str]:
    """The doodle modules `module` imports, anywhere in it (a deferred import still ties the two together)."""
    found = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.update(f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in MODULES else node.module
                         for a in node.names)  # fmt: skip
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m in MODULES and m != module and (module, m) not in LAZY}


def test_no_import_cycle_in_the_package():
    graph = {module: imports(module) for module in MODULES}

    def reaches(start: str, target: str, seen: set[str]) -> bool:
        for nxt in graph[start]:
            if nxt == target or (nxt not in seen and (seen.add(nxt) or reaches(nxt, target, seen))):
                return True
        return False

    assert len(graph) > 60
    assert [m for m in graph if reaches(m, m, set())] == []


def _made_by_cls(tree: ast.AST) -> set[str]:
    """Names bound to `cls(...)` in a class's own constructors (`session = cls(...)`): objects of that class."""
    calls_cls = [node for node in ast.walk(tree) if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                 and isinstance(node.value.func, ast.Name) and node.value.func.id == "cls"]
    return {target.id for node in calls_cls for target in node.targets if isinstance(target, ast.Name)}


def test_no_module_reads_another_objects_private_fields():
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text())
        own = {"self", "cls"} | _made_by_cls(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                private = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
                assert not private, f"{path.name}:{node.lineno} imports {private} from {node.module}"
            if not (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")):
                continue
            owner = node.value.id if isinstance(node.value, ast.Name) else None
            if owner in own:
                continue
            # patchwork's Game copies and restores games of its own class, as python-chess's _BoardState does
            assert module == "doodle.patchwork.game" and owner in ("game", "other"), \
                f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}"
