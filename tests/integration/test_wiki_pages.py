"""The wiki pages on a real graph: a page per corroborated concept and none for a concept
awaiting a second source or merged away; claim statuses on the page; every [[link]] reaches a
page; an export over an unchanged graph writes nothing, a change rewrites the pages it shows
on and removes the pages of concepts that stop qualifying; files the export did not write
stay as they were; the `wiki` asset and `graphwiki wiki export` write the same folder."""

from __future__ import annotations

import json

import dagster as dg
import pytest

from graphwiki_assets.core.config import default_config
from graphwiki_assets.core.store.schema import AWAITING_CORROBORATION
from graphwiki_assets.core.wiki import WikiError, export_wiki
from graphwiki_assets.core.wiki.export import LOCK
from graphwiki_assets.core.wiki.manifest import MANIFEST
from graphwiki_assets.core.wiki.names import safe_stem
from graphwiki_assets.defs.resources import GraphwikiConfig, Neo4jResource
from graphwiki_assets.defs.wiki.assets import wiki as wiki_asset
from tests.support.ingest import SMOKE_TEXTS, ingest, write_sources
from tests.support.seed_graph import CONCEPTS
from tests.support.wikilinks import front_matter, section_items, wiki_links

CONFIG = default_config()


def _pages(folder) -> dict[str, str]:
    return {p.stem: p.read_text(encoding="utf-8") for p in (folder / "concepts").glob("*.md")}


def _changed(report, change: str | None = None) -> set[str]:
    return {c["page"] for c in report.changes() if change is None or c["change"] == change}


def _await_corroboration(store, concept_id: str) -> None:
    store.query(
        "MATCH (c:Concept {id: $id}) SET c.needs_review = true, c.review_reason = $awaiting",
        id=concept_id,
        awaiting=AWAITING_CORROBORATION,
    )


def test_a_page_per_corroborated_concept_with_statuses_links_and_front_matter(seed_graph, tmp_path):
    _await_corroboration(seed_graph, "c-louvain")
    seed_graph.query("MATCH (c:Concept {id: 'c-pandas'}) SET c.status = 'superseded', c.merged_into = 'c-python'")
    folder = tmp_path / "wiki"

    report = export_wiki(seed_graph, CONFIG, folder)

    pages = _pages(folder)
    expected = {safe_stem(name) for cid, (name, *_) in CONCEPTS.items() if cid not in ("c-louvain", "c-pandas")}
    assert set(pages) == expected and report.counts()["written"] == len(expected)
    for stem, text in pages.items():
        meta = front_matter(text)
        assert meta["id"] in CONCEPTS and safe_stem(CONCEPTS[meta["id"]][0]) == stem
        for target in wiki_links(text):
            assert (folder / "concepts" / f"{target}.md").exists(), (stem, target)
    cypher = pages["Cypher"]
    assert front_matter(cypher)["aliases"] == ["CQL", "Cypher Query Language"]
    claims = section_items(cypher, "Claims")
    assert any(
        c.startswith("disputed: CQL is an imperative language") and "contradicts “Cypher is a declarative" in c
        for c in claims
    )
    neo4j = section_items(pages["Neo4j"], "Claims")
    assert any(c.startswith("superseded: Neo4j 4.4") and "superseded by “Neo4j 5.26" in c for c in neo4j)
    # GDS relates to Louvain, which has no page: named, not linked
    gds = pages["Neo4j Graph Data Science"]
    assert "Louvain" not in wiki_links(gds) and any(i.startswith("Louvain") for i in section_items(gds, "Related"))
    assert (folder / "concepts" / "images" / "Neo4j.png").read_bytes().startswith(b"\x89PNG")
    index = (folder / "index.md").read_text(encoding="utf-8")
    assert set(wiki_links(index)) == expected and "### Query Language (2)" in index
    assert (folder / "log.md").exists()


def test_a_second_export_writes_nothing_and_a_new_claim_rewrites_only_its_page(seed_graph, tmp_path):
    folder = tmp_path / "wiki"
    export_wiki(seed_graph, CONFIG, folder)
    stamps = {p: p.stat().st_mtime_ns for p in (folder / "concepts").rglob("*.*")}

    again = export_wiki(seed_graph, CONFIG, folder)
    assert again.counts() == {
        "pages": len(CONCEPTS),
        "written": 0,
        "unchanged": len(CONCEPTS),
        "removed": 0,
        "pictures_written": 0,
    }
    assert {p: p.stat().st_mtime_ns for p in (folder / "concepts").rglob("*.*")} == stamps

    seed_graph.query(
        "MATCH (s:Source {id: 'src-pagerank'}), (c:Concept {id: 'c-pagerank'}) "
        "CREATE (cl:Claim {id: 'cl-pagerank-iterative', text: 'PageRank is computed by power iteration.', "
        "status: 'current'})-[:DERIVED_FROM]->(s), (cl)-[:ABOUT]->(c)"
    )
    changed = export_wiki(seed_graph, CONFIG, folder)
    assert changed.written == [{"page": "PageRank", "concept": "c-pagerank", "change": "changed"}]
    assert changed.counts()["pictures_written"] == 0  # its neighbourhood is what it was
    assert "PageRank is computed by power iteration. [2]" in section_items(_pages(folder)["PageRank"], "Claims")


def test_a_concept_that_stops_qualifying_loses_its_page_and_the_links_to_it(seed_graph, tmp_path):
    folder = tmp_path / "wiki"
    export_wiki(seed_graph, CONFIG, folder)
    assert "Louvain" in wiki_links(_pages(folder)["Neo4j Graph Data Science"])

    _await_corroboration(seed_graph, "c-louvain")
    report = export_wiki(seed_graph, CONFIG, folder)

    assert _changed(report, "removed") == {"Louvain"}
    # the only page that linked it now names it in plain text (its picture draws it grey)
    assert _changed(report, "changed") == {"Neo4j Graph Data Science"} and report.counts()["pictures_written"] == 1
    assert not (folder / "concepts" / "Louvain.md").exists()
    assert not (folder / "concepts" / "images" / "Louvain.png").exists()
    assert "Louvain" not in wiki_links((folder / "index.md").read_text(encoding="utf-8"))


def test_files_the_export_did_not_write_are_left_alone(seed_graph, tmp_path):
    folder = tmp_path / "wiki"
    own = {
        folder / "concepts" / "Docker.md": "# My Docker notes\n",
        folder / "notes.md": "# Notes\n\nSee [[Docker (Software)]].\n",
        folder / ".obsidian" / "app.json": "{}",
    }
    for path, text in own.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    export_wiki(seed_graph, CONFIG, folder)
    # the concept takes the next name; the person's note keeps its own
    assert front_matter(_pages(folder)["Docker (Software)"])["id"] == "c-docker"
    assert "Docker (Software)" in wiki_links(_pages(folder)["Kubernetes"])

    seed_graph.query("MATCH (c:Concept {id: 'c-docker'}) SET c.status = 'superseded'")
    report = export_wiki(seed_graph, CONFIG, folder)
    assert _changed(report, "removed") == {"Docker (Software)"}
    assert {p: p.read_text(encoding="utf-8") for p in own} == own


def test_two_concepts_of_one_name_get_two_pages_each_linked_by_its_own(seed_graph, tmp_path):
    seed_graph.query(
        "MATCH (s:Source {id: 'src-neo4j'}) "
        "CREATE (c:Concept {id: 'c-java-island', name: 'Java', type: 'Place', aliases: [], status: 'current', "
        "summary: 'Java is an island of Indonesia.', source_count: 1})-[:DERIVED_FROM]->(s)"
    )
    folder = tmp_path / "wiki"
    export_wiki(seed_graph, CONFIG, folder)
    pages = _pages(folder)
    # the language has more sources, so it keeps the plain name
    assert (
        front_matter(pages["Java"])["id"] == "c-java" and front_matter(pages["Java (Place)"])["id"] == "c-java-island"
    )
    assert "Java" in wiki_links(pages["APOC"])


def test_an_unreadable_manifest_stops_the_export_before_it_writes(seed_graph, tmp_path):
    folder = tmp_path / "wiki"
    folder.mkdir()
    (folder / MANIFEST).write_text('{"pages": {"x": {"page": "../../etc/passwd"}}}', encoding="utf-8")
    with pytest.raises(WikiError, match="Remove it to export afresh"):
        export_wiki(seed_graph, CONFIG, folder)
    assert sorted(p.name for p in folder.iterdir() if p.name != LOCK) == [MANIFEST]


def test_an_index_of_ones_own_stops_the_export_before_it_writes(seed_graph, tmp_path):
    folder = tmp_path / "vault"
    folder.mkdir()
    (folder / "index.md").write_text("# My vault\n", encoding="utf-8")
    with pytest.raises(WikiError, match="move that file, or export to another folder"):
        export_wiki(seed_graph, CONFIG, folder)
    assert sorted(p.name for p in folder.iterdir() if p.name != LOCK) == ["index.md"]
    assert (folder / "index.md").read_text(encoding="utf-8") == "# My vault\n"


def test_only_concepts_two_files_state_get_a_page_after_an_ingest(store, embedder, settings, tmp_path):
    corroborates = {"neo4j-notes.md": "# Neo4j notes\n\nNeo4j is a graph database written in Java."}
    ingest(store, embedder, settings, write_sources(tmp_path / "sources", {**SMOKE_TEXTS, **corroborates}), cache=False)
    folder = tmp_path / "wiki"

    export_wiki(store, CONFIG, folder)

    pages = _pages(folder)
    assert "Neo4j" in pages and "PageRank" not in pages  # every file names Neo4j; only gds.md PageRank
    for text in pages.values():
        assert len(front_matter(text)["id"]) > 0
        assert all((folder / "concepts" / f"{t}.md").exists() for t in wiki_links(text))
    sources = section_items(pages["Neo4j"], "Sources")
    assert len(sources) >= 2 and all("ingested " in s and "last seen " in s for s in sources)


def test_the_wiki_asset_and_the_command_write_the_pages(seed_graph, settings, tmp_path, cli):
    neo4j = settings.neo4j
    home = tmp_path / "home"
    result = dg.materialize(
        [wiki_asset],
        raise_on_error=True,
        resources={
            "neo4j": Neo4jResource(uri=neo4j.uri, username=neo4j.username, password=neo4j.password),
            "graphwiki": GraphwikiConfig(home=str(home), sources_dir=str(tmp_path / "sources")),
        },
    )
    [event] = result.get_asset_materialization_events()
    metadata = event.materialization.metadata
    assert metadata["written"].value == metadata["pages"].value == len(CONCEPTS)
    changed = [r.data for r in metadata["changed_pages"].records]
    assert {"change": "new", "page": "Neo4j", "concept": "c-neo4j"} in changed
    assert metadata["path"].value == str(home / "wiki")
    assert (home / "wiki" / "concepts" / "Neo4j.md").exists()

    code, out = cli("wiki", "export", str(home / "wiki"), "--json")
    assert code == 0 and json.loads(out)["unchanged"] == len(CONCEPTS)
    code, out = cli("wiki", "export", "--no-pictures")  # $GRAPHWIKI_HOME/wiki by default
    assert code == 0 and (tmp_path / "wiki" / "concepts" / "Neo4j.md").exists()
    assert not (tmp_path / "wiki" / "concepts" / "images").exists()
    # the overview rewrites the index and keeps the list of pages the export wrote
    code, _ = cli("overview", "--write")
    assert code == 0 and "Neo4j" in wiki_links((tmp_path / "wiki" / "index.md").read_text(encoding="utf-8"))


def test_a_renamed_concept_moves_to_its_new_page_and_the_links_follow(seed_graph, tmp_path):
    folder = tmp_path / "wiki"
    export_wiki(seed_graph, CONFIG, folder)
    seed_graph.query("MATCH (c:Concept {id: 'c-gql'}) SET c.name = 'ISO GQL'")

    report = export_wiki(seed_graph, CONFIG, folder)

    assert _changed(report, "removed") == {"GQL"} and _changed(report, "new") == {"ISO GQL"}
    assert _changed(report, "changed") == {"Cypher"}  # the one page that links it
    assert not (folder / "concepts" / "GQL.md").exists() and not (folder / "concepts" / "images" / "GQL.png").exists()
    assert "ISO GQL" in wiki_links(_pages(folder)["Cypher"])
