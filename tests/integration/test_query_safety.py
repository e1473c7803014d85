"""A user's question reaches Cypher only as a parameter, never as query text."""

from __future__ import annotations

import ast
import re

import pytest

from graphwiki_assets.core.query import ask, retrieve_sources
from tests.support.paths import REPO_ROOT
from tests.support.seed_graph import build_seed_graph

QUERY_PACKAGE = REPO_ROOT / "graphwiki_assets" / "core" / "query"
CYPHER_WORDS = re.compile(r"\b(MATCH|MERGE|CREATE|DELETE|DETACH|RETURN|CALL|UNWIND|SET|REMOVE|WHERE|WITH)\b")
RUNNERS = {"query", "query_batched", "run"}
INJECTION = "What is Cypher'}) MATCH (n) DETACH DELETE n //"


def _modules():
    return sorted(QUERY_PACKAGE.glob("*.py"))


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def _in_play_of_a_literal(node: ast.AST) -> bool:
    """``{in_play("c")}``: the one rule for a node in play (store.schema), of a fixed node name."""
    call = node.value if isinstance(node, ast.FormattedValue) else None
    return (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Name)
        and call.func.id == "in_play"
        and len(call.args) == 1
        and isinstance(call.args[0], ast.Constant)
        and isinstance(call.args[0].value, str)
        and not call.keywords
    )


@pytest.mark.parametrize("path", sorted((QUERY_PACKAGE / "cypher").glob("[!_]*.py")), ids=lambda p: p.name)
def test_the_cypher_modules_hold_string_constants_only(path):
    """Text fixed when the module loads: a string, or one whose only interpolation is the
    in-play rule of a literal node name, never a value."""
    tree = ast.parse(path.read_text())
    for node in tree.body[1:]:
        if isinstance(node, ast.ImportFrom) and node.module == "graphwiki_assets.core.store.schema":
            assert [a.name for a in node.names] == ["in_play"]
            continue
        assert isinstance(node, ast.Assign), ast.dump(node)[:80]
        value = node.value
        if isinstance(value, ast.JoinedStr):
            assert all(isinstance(v, ast.Constant) or _in_play_of_a_literal(v) for v in value.values), (
                f"{path.name}: {node.targets[0].id}"
            )
        else:
            assert isinstance(value, ast.Constant) and isinstance(value.value, str), node.targets[0].id


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.name)
def test_no_query_module_builds_cypher_by_formatting(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
            assert not CYPHER_WORDS.search(text), f"{path.name}:{node.lineno} f-string with Cypher"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
            base = node.func.value
            if isinstance(base, ast.Constant) and isinstance(base.value, str):
                assert not CYPHER_WORDS.search(base.value), f"{path.name}:{node.lineno} .format() on Cypher"
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Add)):
            for side in (node.left, node.right):
                if isinstance(side, ast.Constant) and isinstance(side.value, str):
                    assert not CYPHER_WORDS.search(side.value), f"{path.name}:{node.lineno} Cypher built with % or +"


@pytest.mark.parametrize("path", [p for p in _modules() if p.name != "cypher.py"], ids=lambda p: p.name)
def test_every_statement_run_is_a_constant_of_the_cypher_module(path):
    tree = ast.parse(path.read_text())
    docstrings = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in RUNNERS:
            first = node.args[0] if node.args else None
            assert (
                isinstance(first, ast.Attribute) and isinstance(first.value, ast.Name) and first.value.id == "cypher"
            ), f"{path.name}:{node.lineno} runs something else than cypher.X"
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            assert not re.search(r"\b(MATCH|MERGE|DETACH DELETE|UNWIND)\b", node.value), (
                f"{path.name}:{node.lineno} Cypher text outside cypher.py"
            )


def test_a_question_carrying_cypher_leaves_the_graph_intact(store, embedder, offline_llm):
    build_seed_graph(store, embedder)
    before = store.query("MATCH (n) RETURN count(n) AS n")[0]["n"]
    answer = ask(store, embedder, offline_llm, INJECTION)
    for shape in ("related", "connect", "shaped_like", "compare", "topic", "provenance"):
        ask(store, embedder, offline_llm, INJECTION, shape=shape, entities=[INJECTION, "Cypher"], type_filter=INJECTION)
    retrieve_sources(store, embedder, INJECTION, 3)
    assert store.query("MATCH (n) RETURN count(n) AS n")[0]["n"] == before
    assert answer.as_dict()["question"] == INJECTION
