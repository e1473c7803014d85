"""Every source is dated on :Source at commit: what its front matter says, else its dated file
name or folders, else the file's modification time; ``date_from`` says which."""

from __future__ import annotations

import datetime as dt
import os
import shutil

from neo4j.time import Date

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
    plain = folder / "notes.txt"
    stamp = dt.datetime(2022, 1, 2, 12, tzinfo=dt.UTC).timestamp()
    os.utime(plain, (stamp, stamp))
    paths = [
        folder / "dated-front-matter.md",
        folder / "2019-03-05-release-notes.md",
        folder / "posts/2021/07/14/storage.md",
        plain,
    ]
    report = ingest(store, embedder, settings, paths).as_dict()
    assert report["sources"]["new"] == 4
    rows = store.query("MATCH (s:Source) RETURN s.path AS path, s.date AS date, s.date_from AS date_from")
    found = {os.path.basename(r["path"]): (r["date"], r["date_from"]) for r in rows}
    assert found == {
        "dated-front-matter.md": (Date(2018, 11, 20), "front_matter"),
        "2019-03-05-release-notes.md": (Date(2019, 3, 5), "file_name"),
        "storage.md": (Date(2021, 7, 14), "file_name"),
        "notes.txt": (Date(2022, 1, 2), "file_time"),
    }
    # a Neo4j DATE, so queries can compare and order by it
    typed = store.query("MATCH (s:Source) WHERE s.date < date('2020-01-01') RETURN count(s) AS n")
    assert typed[0]["n"] == 2
