"""Questions never fail because of a writer: askers at once with no projection yet, refreshes
racing each other, and eight askers while an ingest writes beside them (small sizes: CI)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from graphwiki_assets.core.evals.generator_plan import concept_name
from graphwiki_assets.core.query import ask
from graphwiki_assets.core.query.projection import current_projection, refresh_projection
from graphwiki_assets.core.query.upkeep import refresh_query_state
from tests.support.ingest import SMOKE_TEXTS, ingest, write_sources
from tests.support.seed_graph import build_seed_graph

ASKERS = 8
QUESTIONS = [
    ("What is {a}?", "what_is"),
    ("What else relates to {a}?", "related"),
    ("Find something shaped like {a}", "shaped_like"),
    ("How does {a} connect to {b}?", "connect"),
]


def _asker(store, embedder, llm, names, stop: threading.Event, rounds: int | None = None, **opts) -> list[str]:
    """Ask every shape about the names ``names()`` gives, until stopped; the errors met."""
    errors, n = [], 0
    while not stop.is_set() and (rounds is None or n < rounds):
        picked = names()
        for template, shape in QUESTIONS:
            a, b = picked[n % len(picked)], picked[(n + 1) % len(picked)]
            try:
                ask(
                    store,
                    embedder,
                    llm,
                    template.format(a=a, b=b),
                    shape=shape,
                    entities=[a] if shape != "connect" else [a, b],
                    **opts,
                )
            except Exception as exc:  # the test counts them: there must be none
                errors.append(f"{shape} {a}: {type(exc).__name__}: {exc}")
        n += 1
    return errors


def test_askers_at_once_with_no_projection_yet_all_get_answers(store, embedder, offline_llm):
    build_seed_graph(store, embedder)  # no projection, no signatures: the state after a restart
    names = lambda: ["Cypher", "APOC", "Neo4j", "PageRank", "Docker"]  # noqa: E731

    def asker(_: int) -> list[str]:
        # "related" by GDS, the path that needs the projection
        return _asker(store, embedder, offline_llm, names, threading.Event(), rounds=1, ppr_via="cypher")

    with ThreadPoolExecutor(ASKERS) as pool:
        done = list(pool.map(asker, range(ASKERS)))
    assert [e for errors in done for e in errors] == []
    builds = store.query("CALL gds.graph.list() YIELD graphName RETURN collect(graphName) AS names")[0]["names"]
    # one build for all askers of this process: the projection and its concept layer
    stamps = {name.split("@")[1] for name in builds}
    assert len(stamps) == 1 and sorted(name.split("@")[0] for name in builds) == [
        "graphwiki-query",
        "graphwiki-query-concepts",
    ]


def test_refreshes_racing_each_other_and_the_askers_cause_no_error(store, embedder, offline_llm):
    build_seed_graph(store, embedder)
    refresh_projection(store)
    stop = threading.Event()
    names = lambda: ["Cypher", "Neo4j Graph Data Science", "Kubernetes", "GQL"]  # noqa: E731
    with ThreadPoolExecutor(ASKERS + 3) as pool:
        askers = [pool.submit(_asker, store, embedder, offline_llm, names, stop) for _ in range(ASKERS)]
        refreshers = [pool.submit(lambda: [refresh_projection(store) for _ in range(3)]) for _ in range(3)]
        try:
            for r in refreshers:
                r.result()
        finally:
            stop.set()  # a failed refresh must fail the test, not leave the askers running
        errors = [e for a in askers for e in a.result()]
    assert errors == []
    refresh_projection(store)  # the clean-up of the newest build leaves it alone
    builds = store.query("CALL gds.graph.list() YIELD graphName RETURN collect(graphName) AS names")[0]["names"]
    newest = current_projection(store)["name"]
    assert sorted(builds) == sorted([newest, newest.replace("@", "-concepts@")])


def _documents(n: int) -> dict[str, str]:
    """Small sources, each naming new entities beside one of the first ingest's."""
    docs = {}
    for i in range(n):
        a, b, c = (concept_name(900 + 3 * i + j, "Concept") for j in range(3))
        docs[f"doc{i}.md"] = (
            f"# {a}\n\n{a} is a library for Neo4j. {a} was written by {b}. "
            f"{b} also maintains {c}, a tool that runs on Neo4j."
        )
    return docs


def test_eight_askers_during_an_ingest_get_no_error(store, embedder, settings, offline_llm, tmp_path):
    ingest(store, embedder, settings, write_sources(tmp_path / "first", SMOKE_TEXTS))
    refresh_query_state(store)
    newest = "MATCH (c:Concept) RETURN c.name AS name ORDER BY c.created_at DESC, c.id LIMIT 4"
    stop = threading.Event()

    def names():
        found = [r["name"] for r in store.query(newest)]
        return found + ["Cypher", "Neo4j"]

    def ingesting():
        try:
            return ingest(store, embedder, settings, write_sources(tmp_path / "second", _documents(12)), batch_size=2)
        finally:
            stop.set()

    with ThreadPoolExecutor(ASKERS + 1) as pool:
        writer = pool.submit(ingesting)
        askers = [pool.submit(_asker, store, embedder, offline_llm, names, stop) for _ in range(ASKERS)]
        report = writer.result()
        errors = [e for a in askers for e in a.result()]
    assert report.as_dict()["sources"]["new"] == 12 and report.as_dict()["sources"]["failed"] == 0
    assert errors == []  # whether or not an asker met a concept newer than the projection (timing decides)
    # the last batch refreshed the projection: everything is in it now
    assert (
        current_projection(store)["nodes"]
        == store.query("MATCH (n) WHERE n:Concept OR n:Claim OR n:Source RETURN count(n) AS n")[0]["n"]
    )


def test_a_concept_newer_than_the_projection_is_answered_with_the_reason(store, embedder, offline_llm):
    build_seed_graph(store, embedder)
    refresh_projection(store)
    # written after the projection, as an ingest's first batch is before its last one refreshes it
    store.query(
        "MATCH (n:Concept {id: 'c-neo4j'}), (s:Source {id: 'src-neo4j'}) "
        "CREATE (m:Concept {id: 'c-memgraph', name: 'Memgraph', type: 'Database', aliases: [], keys: ['memgraph'], "
        "summary: 'Memgraph is a graph database.', status: 'current', needs_review: false, source_count: 1, "
        "created_at: datetime(), updated_at: datetime()})-[:DERIVED_FROM]->(s), "
        "(m)-[:RELATED_TO {claims: [], weight: 1.0}]->(n)"
    )
    question = {"shape": "related", "entities": ["Memgraph"]}
    # local pushes read the live graph: the new concept is ranked at once
    answer = ask(store, embedder, offline_llm, "What else relates to Memgraph?", **question)
    assert answer.details["not_in_projection"] == [] and "c-neo4j" in answer.retrieved["concepts"]
    # GDS ranks on the projection, which holds it only after the next refresh, and says so
    answer = ask(store, embedder, offline_llm, "What else relates to Memgraph?", ppr_via="cypher", **question)
    assert answer.details["not_in_projection"] == ["c-memgraph"]
    assert "after the PageRank projection was last refreshed" in answer.answer
    refresh_projection(store)
    again = ask(store, embedder, offline_llm, "What else relates to Memgraph?", ppr_via="cypher", **question)
    assert again.details["not_in_projection"] == [] and "c-neo4j" in again.retrieved["concepts"]
