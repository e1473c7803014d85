"""`graphwiki ingest` on markdown and HTML of every kind: claims and concepts come from the
prose only (never from code, HTML, front matter, template tags, tables or badges), each
section's heading path reaches extraction, and every source is dated on :Source."""

from __future__ import annotations

import shutil

from neo4j.time import Date

from graphwiki_assets.core.llm.rules_server import RulesServer
from graphwiki_assets.core.sources import sha256_text
from tests.support.paths import REPO_ROOT

DOCUMENTS = REPO_ROOT / "tests" / "support" / "documents"
# Words that occur in the fixtures only inside markup that is not prose.
MARKUP_WORDS = [
    *("Brinemark", "Ventrix", "quillfin", "Zorbex", "Gorvane", "Snarkwell", "Plinthor", "Wumbleton", "Build Status"),
    *("Quorrax", "Fennimore", "Glimmerdock", "Sprocketine", "Morbingale", "Trellisar", "Footwhistle"),
]


def _sources(tmp_path):
    folder = tmp_path / "sources"
    shutil.copytree(DOCUMENTS, folder)
    return folder


def _markup_in_graph(store) -> list[str]:
    rows = store.query(
        "MATCH (n) WHERE n:Claim OR n:Concept "
        "RETURN coalesce(n.text, '') + ' ' + coalesce(n.name, '') + ' ' + "
        "reduce(s = '', a IN coalesce(n.aliases, []) | s + ' ' + a) AS words"
    )
    words = " ".join(r["words"] for r in rows).lower()
    return [w for w in MARKUP_WORDS if w.lower() in words]


def test_ingest_reads_prose_only_and_dates_every_source(store, cli, tmp_path):
    folder = _sources(tmp_path)
    code, _ = cli("ingest", str(folder))
    assert code == 0
    assert _markup_in_graph(store) == []
    claims = [r["text"] for r in store.query("MATCH (c:Claim) RETURN c.text AS text")]
    for prose in ("append-only journal", "compacts its journal", "port 7400", "joined Harborline"):
        assert any(prose in claim for claim in claims), prose
    names = {r["name"] for r in store.query("MATCH (c:Concept) RETURN c.name AS name")}
    assert {"Kelpstore", "Riverbank", "Ada Lindqvist"} <= names

    rows = store.query(
        "MATCH (s:Source) RETURN s.path AS path, s.date AS date, s.date_source AS date_source, s.title AS title"
    )
    dated = {r["path"].rsplit("/", 1)[-1]: (r["date"], r["date_source"], r["title"]) for r in rows}
    assert dated["kelpstore-guide.md"] == (Date(2020, 4, 17), "front_matter", "Kelpstore guide")
    assert dated["tidewater-team.html"] == (Date(2017, 6, 30), "front_matter", "Tidewater team")
    assert dated["2019-03-05-release-notes.md"][:2] == (Date(2019, 3, 5), "file_name")
    assert dated["storage.md"][:2] == (Date(2021, 7, 14), "file_name")
    assert dated["notes.txt"][1] == "file_time"

    # the source keeps the file's own text, addressed by its SHA256 as before
    guide = store.query(
        "MATCH (s:Source) WHERE s.path ENDS WITH 'kelpstore-guide.md' RETURN s.text AS t, s.sha256 AS h"
    )
    original = (folder / "kelpstore-guide.md").read_text(encoding="utf-8")
    assert guide[0]["t"] == original and guide[0]["h"] == sha256_text(original)


def test_the_heading_path_and_link_texts_reach_the_model(store, cli, tmp_path, monkeypatch):
    folder = _sources(tmp_path)
    with RulesServer() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test")
        monkeypatch.setenv("GRAPHWIKI_LLM_MODEL", "rules")
        code, _ = cli("ingest", str(folder / "kelpstore-guide.md"), str(folder / "tidewater-team.html"))
    assert code == 0
    seen = {(d.section, tuple(d.links)) for d in server.extracted}
    assert seen == {
        ("Kelpstore guide", ()),
        ("Kelpstore guide > Install > Linux", ("Harborline Security",)),
        ("Kelpstore guide > Operations", ("Riverbank",)),
        ("Tidewater team", ("Kelpstore",)),
        ("Tidewater team > Members", ()),
    }
    sent = " ".join(d.text for d in server.extracted)
    assert not [w for w in MARKUP_WORDS if w in sent] and "--quillfin-size" not in sent
    assert _markup_in_graph(store) == []
