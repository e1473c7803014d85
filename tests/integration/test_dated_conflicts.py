"""The conflict stage on a real graph: claims ordered by their sources' dates, a change stated
over time found, the newer claim never superseded automatically, a paraphrase not flagged.

Each source is dated by its front matter, as a post or a versioned page would be.
"""

from __future__ import annotations

import datetime as dt
import json

from tests.support.ingest import ingest, write_sources


def _ingest_dated(store, embedder, settings, folder, name: str, text: str, date: dt.date | None) -> str:
    """Ingest one file; ``date`` goes in its front matter (None: the file's own time dates it)."""
    front = f"---\ndate: {date.isoformat()}\n---\n" if date else ""
    (path,) = write_sources(folder, {name: front + text})
    report = ingest(store, embedder, settings, [path], cache=False)
    (source_id,) = [r.source_id for r in report.reports if r.status == "new"]
    stored = store.query("MATCH (s:Source {id: $id}) RETURN s.date AS date", id=source_id)[0]["date"]
    assert date is None or stored.to_native() == date
    return source_id


def _claim_of(store, source_id: str) -> dict:
    (row,) = store.query(
        "MATCH (c:Claim)-[:DERIVED_FROM]->(:Source {id: $id}) RETURN c.id AS id, c.text AS text, c.status AS status",
        id=source_id,
    )
    return row


def _status(store, claim_id: str) -> str:
    return store.query("MATCH (c:Claim {id: $id}) RETURN c.status AS s", id=claim_id)[0]["s"]


EXPERIMENTAL = "# Tessel\n\nTessel is experimental."
STABLE = "# Tessel release\n\nTessel is now stable."


def test_a_change_over_time_disputes_the_older_claim(store, embedder, settings, tmp_path):
    old = _ingest_dated(store, embedder, settings, tmp_path, "old.md", EXPERIMENTAL, dt.date(2015, 3, 1))
    new = _ingest_dated(store, embedder, settings, tmp_path, "new.md", STABLE, dt.date(2024, 6, 1))
    older, newer = _claim_of(store, old), _claim_of(store, new)
    (edge,) = store.query(
        "MATCH (a:Claim {id: $new})-[r:CONTRADICTS]->(b:Claim {id: $old}) "
        "RETURN r.reason AS reason, r.newer_claim AS newer, r.order AS order",
        new=newer["id"],
        old=older["id"],
    )
    assert edge["reason"].startswith("a change over time")
    assert edge["newer"] == newer["id"]
    assert edge["order"] == f"{newer['id']} (2024-06-01) is newer than {older['id']} (2015-03-01)"
    assert _status(store, older["id"]) == _status(store, newer["id"]) == "disputed"


def test_a_source_siding_with_the_older_claim_never_supersedes_the_newer(store, embedder, settings, tmp_path):
    old = _ingest_dated(store, embedder, settings, tmp_path, "old.md", EXPERIMENTAL, dt.date(2015, 3, 1))
    new = _ingest_dated(store, embedder, settings, tmp_path, "new.md", STABLE, dt.date(2024, 6, 1))
    _ingest_dated(store, embedder, settings, tmp_path, "again.md", "# Notes\n\nTessel is experimental.", None)
    older, newer = _claim_of(store, old), _claim_of(store, new)
    assert _status(store, newer["id"]) == "disputed"  # not superseded, though a later file sided against it
    (edge,) = store.query(
        "MATCH (:Claim {id: $a})-[r:CONTRADICTS]-(:Claim {id: $b}) RETURN r.kept_disputed AS why, r.kept_by AS by",
        a=newer["id"],
        b=older["id"],
    )
    assert "never superseded automatically" in edge["why"] and "2024-06-01" in edge["why"]
    assert edge["by"].startswith("ingest of ")
    logged = [json.loads(r["o"]) for r in store.query("MATCH (e:LogEntry {action: 'ingest'}) RETURN e.outputs AS o")]
    kept = [k for o in logged for k in o["kept_disputed"]]
    assert [(k["winner"], k["loser"]) for k in kept] == [(older["id"], newer["id"])]


def test_a_later_source_may_supersede_the_older_loser(store, embedder, settings, tmp_path):
    # The same two statements with their dates swapped: now the stable one is the older claim.
    old = _ingest_dated(store, embedder, settings, tmp_path, "old.md", EXPERIMENTAL, dt.date(2024, 6, 1))
    new = _ingest_dated(store, embedder, settings, tmp_path, "new.md", STABLE, dt.date(2015, 3, 1))
    _ingest_dated(store, embedder, settings, tmp_path, "again.md", "# Notes\n\nTessel is experimental.", None)
    assert _status(store, _claim_of(store, new)["id"]) == "superseded"
    assert _status(store, _claim_of(store, old)["id"]) != "superseded"


def test_a_paraphrase_is_corroboration_not_a_contradiction(store, embedder, settings, tmp_path):
    first = _ingest_dated(
        store,
        embedder,
        settings,
        tmp_path,
        "a.md",
        "# Tessel\n\nTessel stores its index on disk and replicates it to every peer.",
        dt.date(2020, 1, 1),
    )
    second = _ingest_dated(
        store,
        embedder,
        settings,
        tmp_path,
        "b.md",
        "# Tessel\n\nTessel replicates the index it stores on disk to every peer.",
        dt.date(2023, 1, 1),
    )
    a, b = _claim_of(store, first), _claim_of(store, second)
    assert store.query("MATCH ()-[r:CONTRADICTS]->() RETURN count(r) AS n")[0]["n"] == 0
    assert (
        store.query(
            "MATCH (:Claim {id: $b})-[r:CORROBORATES]->(:Claim {id: $a}) RETURN count(r) AS n", a=a["id"], b=b["id"]
        )[0]["n"]
        == 1
    )
    assert _status(store, a["id"]) == _status(store, b["id"]) == "current"
