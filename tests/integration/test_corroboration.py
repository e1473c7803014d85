"""Corroboration gating: a concept stated by one independent source is kept, linked and
searchable but flagged needs_review (awaiting corroboration) until another file states it,
in its own words and about whichever concept; a changed version of the same file is not
another source. Answers mark such facts "one
source"; lint does not count them as overdue reviews."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphwiki_assets.core.ingest.conflicts import ConflictConfig
from graphwiki_assets.core.lint import checks
from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.query import ask
from graphwiki_assets.core.store.schema import AWAITING_CORROBORATION
from tests.support.ingest import ingest, write_sources

FIRST = {"tarn.md": "# Tarnwick\n\nTarnwick is a mountain village in the Orrin valley. Tarnwick holds a cheese fair."}
SAME_FILE_LATER = "# Tarnwick\n\nTarnwick is a mountain village in the Orrin valley. Tarnwick has a stone bridge."
SECOND = {"travel.md": "# Orrin valley travel\n\nTarnwick is a village on the road through the Orrin valley."}


def _tarnwick(store) -> dict:
    return store.query(
        "MATCH (c:Concept {name: 'Tarnwick'}) RETURN c.needs_review AS flagged, "
        "c.review_reason AS reason, c.independent_sources AS independent, "
        "c.corroborated_at IS NOT NULL AS corroborated"
    )[0]


def test_one_file_flags_the_concept_and_a_second_file_lifts_the_flag(store, embedder, settings, tmp_path):
    ingest(store, embedder, settings, write_sources(tmp_path / "a", FIRST), cache=False)
    assert _tarnwick(store) == {
        "flagged": True,
        "reason": AWAITING_CORROBORATION,
        "independent": 1,
        "corroborated": False,
    }
    # kept, linked and searchable by id meanwhile
    assert store.query("MATCH (:Concept {name: 'Tarnwick'})<-[:ABOUT]-(c:Claim) RETURN count(c) AS n")[0]["n"] > 0

    ingest(store, embedder, settings, write_sources(tmp_path / "b", SECOND), cache=False)
    assert _tarnwick(store) == {"flagged": False, "reason": None, "independent": 2, "corroborated": True}


def test_a_new_version_of_the_same_file_is_not_a_second_source(store, embedder, settings, tmp_path):
    [path] = write_sources(tmp_path / "a", FIRST)
    ingest(store, embedder, settings, [path], cache=False)

    path.write_text(SAME_FILE_LATER, encoding="utf-8")
    ingest(store, embedder, settings, [path], cache=False)

    found = _tarnwick(store)
    assert found["flagged"] is True and found["independent"] == 1 and not found["corroborated"]


def test_answers_mark_single_source_facts_and_lint_does_not_call_them_overdue(store, embedder, settings, tmp_path):
    ingest(store, embedder, settings, write_sources(tmp_path / "a", FIRST), cache=False)

    answer = ask(store, embedder, build_llm(settings.llm), "What is Tarnwick?")
    assert any("[one source — see " in s.text for s in answer.sentences)
    assert any("rests on one source so far" in f for f in answer.flags)
    later = datetime.now(UTC) + timedelta(days=365)
    assert checks.stale_needs_review(store, later, days=30).count == 0


def test_a_claim_another_file_says_too_is_corroborated(store, embedder, settings, tmp_path):
    ingest(store, embedder, settings, write_sources(tmp_path / "a", FIRST), cache=False)
    ingest(
        store,
        embedder,
        settings,
        write_sources(tmp_path / "b", {"again.md": FIRST["tarn.md"].replace("# Tarnwick", "# About Tarnwick")}),
        cache=False,
    )

    rows = store.query(
        "MATCH (c:Claim) RETURN c.text AS text, c.needs_review AS flagged, c.review_reason AS reason, "
        "c.independent_sources AS independent, COUNT { (c)-[:CORROBORATES]-() } AS links"
    )
    linked = [r for r in rows if r["links"]]
    assert linked, "the conflict stage found no claim saying the same"
    assert all(r["independent"] == 2 and r["flagged"] is False for r in linked)
    assert all(r["reason"] == AWAITING_CORROBORATION for r in rows if not r["links"])


# One fact, three files, three wordings: as people restate a fact across pages.
THREE_WORDINGS = {
    "overview.md": "# Quillbase\n\nQuillbase writes every record to a write-ahead log before applying it.",
    "storage.md": "# Storage\n\nBefore applying a record, Quillbase writes it to the write-ahead log.",
    "faq.md": "# Durability\n\nEvery record goes to the write-ahead log of Quillbase before Quillbase applies it.",
}


def test_a_fact_three_files_state_in_their_own_words_is_not_marked_one_source(store, embedder, settings, tmp_path):
    ingest(store, embedder, settings, write_sources(tmp_path / "a", THREE_WORDINGS), cache=False)

    rows = store.query(
        "MATCH (c:Claim) WHERE c.text CONTAINS 'write-ahead log' RETURN c.text AS text, "
        "c.independent_sources AS independent, c.needs_review AS flagged, c.review_reason AS reason"
    )
    assert len(rows) == 3, rows
    links = store.query("MATCH (a:Claim)-[r:CORROBORATES]->(b:Claim) RETURN a.text AS a, b.text AS b")
    assert all(r["independent"] == 3 and r["flagged"] is False for r in rows), (rows, links)
    answer = ask(store, embedder, build_llm(settings.llm), "What is Quillbase?")
    stated = [s.text for s in answer.sentences if "write-ahead log" in s.text]
    assert stated and not any("[one source" in s for s in stated), answer.answer


# One fact in three files, each wording it its own way and attaching it to another concept
# node (the engine, the product, a cluster of it), as documentation pages do; and one fact,
# on the same topic, that only one file states.
RESTATED = {
    "engine.md": "# Brindle Engine\n\nThe Brindle Engine copies every committed write to three storage nodes.",
    "replication.md": "# Replication\n\nEach committed write is copied by Brindle to three storage nodes.",
    "faq.md": (
        "# Questions\n\nIn a Brindle Cluster, every committed write is copied to three storage nodes. "
        "Once a night, Brindle compacts the storage nodes."
    ),
}
STATED_ONCE = "compacts the storage nodes"


def _claims_on_writes(store) -> list[dict]:
    return store.query(
        "MATCH (c:Claim)-[:ABOUT]->(k:Concept) WHERE c.text CONTAINS 'committed write' "
        "RETURN c.text AS text, collect(k.name) AS about, c.independent_sources AS independent, "
        "c.needs_review AS flagged, c.review_reason AS reason ORDER BY text"
    )


def _ingest_each(store, embedder, settings, paths) -> list[dict]:
    return [ingest(store, embedder, settings, [path], cache=False).as_dict() for path in paths]


@pytest.mark.parametrize("batches", ["one batch", "one file per ingest"])
def test_a_fact_files_attach_to_different_concepts_is_corroborated_by_each_file(
    store, embedder, settings, tmp_path, batches
):
    paths = write_sources(tmp_path / "a", RESTATED)
    if batches == "one batch":
        reports = [ingest(store, embedder, settings, paths, cache=False).as_dict()]
    else:
        reports = _ingest_each(store, embedder, settings, paths)

    rows = _claims_on_writes(store)
    about = [set(r["about"]) for r in rows]
    assert len(rows) == 3 and not any(a & b for i, a in enumerate(about) for b in about[i + 1 :]), (
        rows
    )  # no concept shared
    assert all(r["independent"] == 3 and r["flagged"] is False and r["reason"] is None for r in rows), rows
    [once] = store.query(
        "MATCH (c:Claim) WHERE c.text CONTAINS $said RETURN c.independent_sources AS independent, "
        "c.review_reason AS reason",
        said=STATED_ONCE,
    )
    assert once == {"independent": 1, "reason": AWAITING_CORROBORATION}
    # the extra pairs are counted, and bounded by the cap per claim
    judged = sum(r["restatement_pairs"] for r in reports)
    assert 0 < judged <= ConflictConfig().restatements.per_claim * sum(r["claims"] for r in reports)


def test_two_versions_of_one_file_restating_a_fact_do_not_corroborate_it(store, embedder, settings, tmp_path):
    [path] = write_sources(tmp_path / "a", {"engine.md": RESTATED["engine.md"]})
    ingest(store, embedder, settings, [path], cache=False)
    path.write_text(RESTATED["replication.md"], encoding="utf-8")  # the fact again, worded and linked anew
    [report] = _ingest_each(store, embedder, settings, [path])

    rows = _claims_on_writes(store)
    assert len(rows) == 2 and {n for r in rows for n in r["about"]} == {"Brindle Engine", "Brindle"}, rows
    # the old version's claim is flagged for its changed file, the new one still awaits
    assert all(r["independent"] == 1 and r["flagged"] is True for r in rows), rows
    assert [r["reason"] for r in rows if r["about"] == ["Brindle"]] == [AWAITING_CORROBORATION]
    assert report["restatement_pairs"] == 0
