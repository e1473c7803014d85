"""The import graph of graphwiki_assets has no cycles, counting imports inside functions
(which would only hide one); imports under ``if TYPE_CHECKING:`` never run and are left out."""

from __future__ import annotations

import ast
from pathlib import Path

import graphwiki_assets

ROOT = Path(graphwiki_assets.__file__).parent


def _imports(tree: ast.AST) -> list[str]:
    names, todo = [], [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo += node.orelse
            continue
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names += [f"{node.module}.{a.name}" for a in node.names]
        todo += ast.iter_child_nodes(node)
    return names


def _graph(key=lambda module: module) -> dict[str, set[str]]:
    """Who imports whom, by ``key``; importing an enclosing package of one's own is no cycle."""
    paths = {
        ".".join(("graphwiki_assets", *p.relative_to(ROOT).with_suffix("").parts)).removesuffix(".__init__"): p
        for p in ROOT.rglob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        targets = {t if t in paths else t.rpartition(".")[0] for t in _imports(ast.parse(path.read_text()))}
        graph.setdefault(key(name), set()).update(
            key(t) for t in targets if t in paths and not name.startswith(t + ".") and key(t) != key(name)
        )
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """Each group of nodes that reach one another through imports, once."""
    reached = {}
    for start in graph:
        seen, todo = set(), [start]
        while todo:
            todo += graph.get(todo.pop(), set()) - seen
            seen.update(todo)
        reached[start] = seen
    groups = {frozenset(m for m in reached[n] if n in reached.get(m, ())) for n in graph if n in reached[n]}
    return [set(g) for g in groups]


def _package(module: str) -> str:
    return module.split(".")[2] if module.startswith("graphwiki_assets.core.") else module


def test_no_module_imports_itself_through_others():
    assert _cycles(_graph()) == []


def test_core_packages_import_each_other_one_way_only():
    assert _cycles(_graph(_package)) == []
