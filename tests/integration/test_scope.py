"""Scope: a source outside the schema config's focus becomes a :Source with its reason and
provenance, costs no extraction call and promotes nothing; a question that can only be
answered from it says it is outside the current focus."""

from __future__ import annotations

from graphwiki_assets.core.config import default_config, parse
from graphwiki_assets.core.ingest.pipeline import IngestConfig, Ingestor, ingest_documents, read_paths
from graphwiki_assets.core.ingest.scope import Scope
from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.query import ask
from tests.support.ingest import SMOKE_TEXTS, write_sources

FOCUSED = """
purpose:
  description: Graph databases and how they are queried.
  focus: [graph databases and query languages]
  exclude: [cooking and recipes]
taxonomy:
  fallback: Concept
  types:
    - name: Technology
      definition: A piece of software, a language or a library.
      includes: [language, library, database, software]
    - name: Concept
      definition: Anything else.
"""

RECIPE = {
    "pancakes.md": "# Pancakes\n\nWhisk flour, eggs and milk into a smooth batter. "
    "Fry the pancakes in butter until golden, then serve them with maple syrup."
}


def test_the_decision_follows_the_focus_and_the_exclusions(embedder):
    scope = Scope(parse(FOCUSED, "focused").purpose, embedder, floor=0.25)
    graph = scope.decide(embedder.encode(["Cypher is a query language for the Neo4j graph database."])[0])
    food = scope.decide(embedder.encode(["Whisk the eggs and fry the pancakes in butter."])[0])
    assert graph.scope == "in" and "graph databases and query languages" in graph.reason
    assert food.scope == "out" and "excluded topic 'cooking and recipes'" in food.reason
    assert not Scope(default_config().purpose, embedder, floor=0.25).active  # no focus: everything is in


def test_an_out_of_scope_source_is_kept_with_its_reason_and_promotes_nothing(store, embedder, settings, tmp_path):
    paths = write_sources(tmp_path / "sources", {**SMOKE_TEXTS, **RECIPE})
    llm = build_llm(settings.llm)
    ingestor = Ingestor(store=store, embedder=embedder, llm=llm, config=IngestConfig(schema=parse(FOCUSED, "f")))

    report = ingest_documents(ingestor, read_paths(paths)).as_dict()

    assert [o["path"].rsplit("/", 1)[-1] for o in report["out_of_scope"]] == ["pancakes.md"]
    assert report["sources"]["new"] == len(paths)
    rows = {
        r["path"].rsplit("/", 1)[-1]: r
        for r in store.query(
            "MATCH (s:Source) RETURN s.path AS path, s.scope AS scope, s.scope_reason AS reason, "
            "COUNT { (s)<-[:DERIVED_FROM]-() } AS derived, s.embedding IS NOT NULL AS embedded"
        )
    }
    recipe = rows.pop("pancakes.md")
    assert (recipe["scope"], recipe["derived"], recipe["embedded"]) == ("out", 0, True)
    assert "cooking and recipes" in recipe["reason"]
    assert all(r["scope"] == "in" and r["derived"] > 0 and "near the focus topic" in r["reason"] for r in rows.values())
    # one extraction call for the three in-scope files (they share it): none for the recipe
    assert report["llm_by_task"]["extract"]["calls"] == 1


def test_an_answer_from_an_out_of_scope_source_says_so(store, embedder, settings, tmp_path):
    paths = write_sources(tmp_path / "sources", {**SMOKE_TEXTS, **RECIPE})
    llm = build_llm(settings.llm)
    ingest_documents(
        Ingestor(store=store, embedder=embedder, llm=llm, config=IngestConfig(schema=parse(FOCUSED, "f"))),
        read_paths(paths),
    )

    answer = ask(store, embedder, llm, "What is maple syrup?")

    assert answer.rung == "raw_sources"
    assert "(outside the current focus)" in answer.answer
    assert any("is outside the current focus" in f for f in answer.flags)
