"""Every source is dated on :Source at commit: what its front matter says, else its dated file
name or folders, else the file's modification time; ``date_source`` says which."""

from __future__ import annotations

import datetime as dt
import os
import shutil

from neo4j.time import Date

from graphwiki_assets.core.store.migrations import migrate
from graphwiki_assets.core.store.schema import ensure_schema
from tests.support.ingest import ingest
from tests.support.paths import REPO_ROOT

DOCUMENTS = REPO_ROOT / "tests" / "support" / "documents"


def test_sources_carry_their_date_and_where_it_came_from(store, embedder, settings, tmp_path):
    folder = tmp_path / "sources"
    shutil.copytree(DOCUMENTS, folder)
    (folder / "dated-front-matter.md").write_text(
        "---\ntitle: Kelpstore design\ndate: 2018-11-20\n---\n# Kelpstore\n\nKelpstore is a log-structured engine.\n",
        encoding="utf-8",
    )
    (folder / "moving-day.md").write_text(
        "---\ntitle: Moving day\ncreated_at: 2016-08-09T08:15:00+02:00\n---\n\nTidewater moved to Kelpstore.\n",
        encoding="utf-8",
    )
    (folder / "release-notes-2020-02-03.md").write_text(
        "# Kelpstore 2.1\n\nKelpstore 2.1 adds snapshots.\n", encoding="utf-8"
    )
    plain = folder / "notes.txt"
    stamp = dt.datetime(2022, 1, 2, 12, tzinfo=dt.UTC).timestamp()
    os.utime(plain, (stamp, stamp))
    paths = [
        folder / "dated-front-matter.md",
        folder / "moving-day.md",
        folder / "2019-03-05-release-notes.md",
        folder / "release-notes-2020-02-03.md",
        folder / "posts/2021/07/14/storage.md",
        plain,
    ]
    report = ingest(store, embedder, settings, paths).as_dict()
    assert report["sources"]["new"] == 6
    rows = store.query("MATCH (s:Source) RETURN s.path AS path, s.date AS date, s.date_source AS date_source")
    found = {os.path.basename(r["path"]): (r["date"], r["date_source"]) for r in rows}
    assert found == {
        "dated-front-matter.md": (Date(2018, 11, 20), "front_matter"),
        "moving-day.md": (Date(2016, 8, 9), "front_matter"),
        "2019-03-05-release-notes.md": (Date(2019, 3, 5), "file_name"),
        "release-notes-2020-02-03.md": (Date(2020, 2, 3), "file_name"),
        "storage.md": (Date(2021, 7, 14), "file_name"),
        "notes.txt": (Date(2022, 1, 2), "file_time"),
    }
    # a Neo4j DATE, so queries can compare and order by it
    typed = store.query("MATCH (s:Source) WHERE s.date < date('2020-01-01') RETURN count(s) AS n")
    assert typed[0]["n"] == 3


OLD_SOURCES = """
CREATE (:Source {id: 's1', path: 'a.md', status: 'current', date: date('2019-03-05'), date_from: 'front_matter'})
CREATE (:Source {id: 's2', path: 'b.md', status: 'current', date: date('2021-07-14'), date_from: 'file_name'})
CREATE (:Source {id: 's3', path: 'c.md', status: 'current'})
"""


def test_a_graph_that_recorded_date_from_reads_it_as_date_source_after_start_up(store, embedder):
    store.query(OLD_SOURCES)
    ensure_schema(store, embedder.dimension)  # what every writer does at start-up
    rows = store.query(
        "MATCH (s:Source) RETURN s.id AS id, s.date AS date, s.date_source AS date_source, "
        "s.date_from IS NOT NULL AS old ORDER BY id"
    )
    assert [(r["id"], r["date"], r["date_source"], r["old"]) for r in rows] == [
        ("s1", Date(2019, 3, 5), "front_matter", False),
        ("s2", Date(2021, 7, 14), "file_name", False),
        ("s3", None, None, False),  # undated before: still undated
    ]
    assert not migrate(store).changed  # a second start changes nothing
