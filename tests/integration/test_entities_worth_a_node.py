"""Entities worth a node, on the real pipeline and a real Neo4j: a glossary expansion and a
spacing variant become one concept, ids, paths and measurements become none, a person
listed under "Maintainers" is a Person, and a question asking for "people" lists them."""

from __future__ import annotations

from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.query import ask
from tests.support.ingest import concept_named, ingest, write_sources

DOCS = {
    "kestrel.md": (
        "# Kestrel\n\n"
        "Kestrel is a distributed key-value store. Kestrel keeps old values with MVCC. "
        "Kestrel sends alerts to Alert Manager when a member fails. "
        "The data lives in /var/lib/kestrel/member and the commit 9f3c2ab71d04e5 added a 10ms timeout.\n\n"
        "## Maintainers\n\n"
        "- Ada Quill\n"
        "- Bram Oster\n"
    ),
    "glossary.md": (
        "# Glossary\n\n"
        "MVCC: Multi-Version Concurrency Control, the way a store keeps every revision of a key.\n\n"
        "AlertManager groups the alerts that Kestrel sends and routes them to people on call.\n"
    ),
}


def test_expansions_and_spacing_variants_are_one_concept_and_junk_none(store, embedder, settings, tmp_path):
    ingest(store, embedder, settings, write_sources(tmp_path, DOCS), cache=False)

    mvcc = concept_named(store, "MVCC")
    assert len(mvcc) == 1
    assert concept_named(store, "Multi-Version Concurrency Control") == mvcc

    alert = concept_named(store, "Alert Manager")
    assert len(alert) == 1
    assert concept_named(store, "AlertManager") == alert

    names = {r["name"] for r in store.query("MATCH (c:Concept) RETURN c.name AS name")}
    assert not {"/var/lib/kestrel/member", "9f3c2ab71d04e5", "10ms"} & names
    assert all(not n.startswith("/") and not n.isdigit() for n in names)


def test_maintainers_are_people_and_a_question_for_people_lists_them(store, embedder, settings, tmp_path):
    ingest(store, embedder, settings, write_sources(tmp_path, DOCS), cache=False)
    types = {r["name"]: r["type"] for r in store.query("MATCH (c:Concept) RETURN c.name AS name, c.type AS type")}
    assert types["Ada Quill"] == types["Bram Oster"] == "Person"
    assert types["Kestrel"] == "Product"  # "a distributed key-value store"

    llm = build_llm(settings.llm)
    for question in ("Which people are mentioned?", "Who is mentioned?", "List all persons"):
        answer = ask(store, embedder, llm, question)
        assert answer.shape == "topic", question
        listed = " ".join(answer.retrieved.get("concepts", [])) + " " + answer.answer
        assert "Ada Quill" in answer.answer and "Bram Oster" in answer.answer, (question, listed)
