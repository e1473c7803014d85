"""The model is asked outside the ingest lease: each batch is drafted against the graph as it
stands (resolution and conflicts, writing nothing), and under the lease only the pairs that
commits made since the draft changed are asked again. Two batches drafted before either
commits still build the graph that committing them one after the other builds."""

from __future__ import annotations

from graphwiki_assets.core.ingest.pipeline import IngestConfig, Ingestor, read_paths
from graphwiki_assets.core.llm.client import build_llm
from tests.support.ingest import SMOKE_TEXTS, write_sources

FIRST = {
    "first.md": (
        "# Quillmesh\n\nQuillmesh is a message broker written in Rust. "
        "Quillmesh was first released in 2014. Quillmesh stores each queue in its own log file."
    )
}
SECOND = {
    "second.md": (
        "# Quillmesh history\n\nQuillmesh was first released in 2019. "
        "Quillmesh replicates every queue to three brokers by default."
    )
}


def _graph(store) -> dict:
    return {
        "concepts": [r["name"] for r in store.query("MATCH (c:Concept) RETURN c.name AS name ORDER BY name")],
        "claims": sorted(
            (r["text"], r["status"]) for r in store.query("MATCH (k:Claim) RETURN k.text AS text, k.status AS status")
        ),
        "contradictions": store.query("MATCH ()-[r:CONTRADICTS]->() RETURN count(r) AS n")[0]["n"],
        "merged": sorted(
            r["name"] for r in store.query("MATCH (c:Concept) WHERE size(c.aliases) > 0 RETURN c.name AS name")
        ),
    }


def _ingestor(store, embedder, settings, draft: str = "on") -> Ingestor:
    config = IngestConfig(batch_size=8, draft=draft)
    return Ingestor(store=store, embedder=embedder, llm=build_llm(settings.llm), config=config)


def test_two_batches_drafted_before_either_commits_build_the_serial_graph(store, embedder, settings, tmp_path):
    first = list(read_paths(write_sources(tmp_path / "a", FIRST)))
    second = list(read_paths(write_sources(tmp_path / "b", SECOND)))
    serial = _ingestor(store, embedder, settings)
    serial.ingest_batch(first)
    serial.ingest_batch(second)
    expected = _graph(store)
    assert expected["contradictions"] >= 1  # the two release years are opposed
    assert expected["concepts"].count("Quillmesh") == 1
    store.query("MATCH (n) DETACH DELETE n")

    racing = _ingestor(store, embedder, settings)
    drafted_first, drafted_second = racing.prepare(first), racing.prepare(second)  # both see an empty graph
    racing.finish(drafted_first)
    assert racing.rechecked["judge_asked"] == racing.rechecked["conflicts_asked"] == 0  # nothing changed
    racing.finish(drafted_second)

    assert _graph(store) == expected
    # the second draft could not see the first batch's claims: that comparison is asked under the lease
    assert racing.rechecked["conflicts_asked"] >= 1


def test_the_lease_asks_the_model_nothing_the_draft_answered(store, embedder, settings, tmp_path):
    ingestor = _ingestor(store, embedder, settings)
    ingestor.ingest_batch(list(read_paths(write_sources(tmp_path / "smoke", SMOKE_TEXTS))))
    drafted = ingestor.prepare(list(read_paths(write_sources(tmp_path / "more", FIRST | SECOND))))
    asked = drafted.answered.judge.asked + drafted.answered.conflicts.asked
    assert asked > 0  # the draft asked the model about candidates and claims already in the graph

    before = ingestor.llm.usage.snapshot()
    ingestor.finish(drafted)
    used = (ingestor.llm.usage.snapshot() - before).tasks()

    under_lease = drafted.answered.counts()  # counted afresh for the commit's pass
    assert under_lease["judge_asked"] == under_lease["conflicts_asked"] == 0
    assert under_lease["judge_reused"] + under_lease["conflicts_reused"] == asked
    assert used.get("judge", {}).get("calls", 0) == used.get("conflicts", {}).get("calls", 0) == 0


def test_the_offline_rules_are_not_drafted_unless_asked(store, embedder, settings, tmp_path):
    # the rules run in this process: a draft would spend their CPU twice and hide no latency
    ingestor = _ingestor(store, embedder, settings, draft="auto")
    drafted = ingestor.prepare(list(read_paths(write_sources(tmp_path / "a", FIRST))))
    assert ingestor.llm.offline and not ingestor.drafts
    assert drafted.answered is not None and drafted.answered.counts()["judge_asked"] == 0
    ingestor.finish(drafted)
    assert ingestor.rechecked["judge_reused"] == ingestor.rechecked["conflicts_reused"] == 0
