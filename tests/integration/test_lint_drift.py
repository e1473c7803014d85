"""SHA256 drift: stored text vs its hash, and a file on disk vs its latest Source."""

from __future__ import annotations

from datetime import timedelta

from graphwiki_assets.core.lint import checks
from graphwiki_assets.core.review.impact import flag_file_drift
from graphwiki_assets.core.sources import sha256_text
from tests.support.clean_graph import NOW, TEXTS, plant_clean_graph


def write_files(folder, texts=TEXTS):
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def flagged(store) -> set[str]:
    return {r["id"] for r in store.query("MATCH (n) WHERE n.needs_review = true RETURN n.id AS id")}


def test_stored_text_edited_in_place_no_longer_matches_its_hash(store):
    ids = plant_clean_graph(store)
    store.query("MATCH (s:Source {id: $id}) SET s.text = s.text + ' (edited)'", id=ids["gds.md"])

    result = checks.source_text_unchanged(store)

    assert (result.count, result.total, result.offending, result.severity) == (1, 3, (ids["gds.md"],), "error")
    assert checks.source_text_unchanged(store, source_ids=[ids["cql.md"]]).count == 0  # scoped re-hash


def test_files_that_match_their_sources_do_not_drift(store, tmp_path):
    plant_clean_graph(store)
    folder = write_files(tmp_path / "sources")

    result = checks.source_files_unchanged(store, folder)

    assert (result.count, result.total, result.severity) == (0, 3, "info")


def test_a_changed_file_drifts_and_a_missing_one_is_only_mentioned(store, tmp_path):
    ids = plant_clean_graph(store)
    folder = write_files(tmp_path / "sources")
    (folder / "cql.md").write_text("# Querying\n\nCQL is a declarative language now.", encoding="utf-8")
    (folder / "gds.md").unlink()

    result = checks.source_files_unchanged(store, folder)

    assert (result.count, result.total, result.offending, result.severity) == (1, 2, (ids["cql.md"],), "warn")
    assert result.rows[0]["dependents"] == 4
    assert "1 path(s) not found on disk" in result.description


def test_drift_on_a_changed_file_flags_exactly_the_dependents_of_the_old_version(store, tmp_path):
    ids = plant_clean_graph(store)
    folder = write_files(tmp_path / "sources")
    (folder / "cql.md").write_text("# Querying\n\nCQL is a declarative language now.", encoding="utf-8")

    result = flag_file_drift(store, folder, NOW)

    dependents = {"cypher", "neo4j", "claim-imperative", "claim-cql-queries"}
    assert {k: set(v) for k, v in result.items()} == {ids["cql.md"]: dependents}
    assert flagged(store) == dependents
    since = store.query("MATCH (c:Concept {id: 'cypher'}) RETURN c.needs_review_since AS t, c.review_reason AS r")[0]
    assert since["t"].to_native() == NOW and "cql.md" in since["r"]


def test_a_re_ingested_file_is_compared_with_its_latest_source(store, tmp_path):
    plant_clean_graph(store)
    new_text = "# Querying\n\nCQL is a declarative language now."
    folder = write_files(tmp_path / "sources", {**TEXTS, "cql.md": new_text})
    store.query(
        "CREATE (:Source {id: 'src-new', path: 'cql.md', text: $text, sha256: $sha, status: 'current', "
        "ingested_at: $at, last_seen_at: $at})",
        text=new_text,
        sha=sha256_text(new_text),
        at=NOW - timedelta(hours=1),
    )

    assert checks.source_files_unchanged(store, folder).count == 0
