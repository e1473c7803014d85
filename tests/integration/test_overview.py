"""The overview: corroborated concepts by type (a concept on one source is left out until a
second independent file states it; a new version of the same file is not a second source),
recent additions, active contradictions, items needing review and gaps; written to
wiki/index.md and wiki/log.md, and materialised as the `overview` asset."""

from __future__ import annotations

import dagster as dg

from graphwiki_assets.cli.main import main
from graphwiki_assets.core.config import default_config, parse
from graphwiki_assets.core.overview import build_overview, write_wiki
from graphwiki_assets.defs.overview.assets import overview as overview_asset
from graphwiki_assets.defs.resources import GraphwikiConfig, Neo4jResource
from tests.support.ingest import SMOKE_TEXTS, ingest, write_sources

CORROBORATES = {
    "neo4j-notes.md": "# Neo4j notes\n\nNeo4j is a graph database written in Java. "
    "Neo4j stores nodes and relationships."
}


def _listed(view) -> set[str]:
    return {c["name"] for t in view.by_type for c in t["concepts"]}


def test_only_concepts_two_independent_files_state_are_listed(store, embedder, settings, tmp_path):
    folder = tmp_path / "sources"
    ingest(store, embedder, settings, write_sources(folder, SMOKE_TEXTS), cache=False)

    view = build_overview(store, default_config())
    # every smoke file names Neo4j, so it is corroborated; Cypher is named by cypher.md alone
    assert "Neo4j" in _listed(view) and "PageRank" not in _listed(view)
    assert view.single_source >= 1

    # a new version of gds.md naming PageRank again is the same file, not a second source
    (folder / "gds.md").write_text(SMOKE_TEXTS["gds.md"] + " PageRank ranks nodes by their links.", encoding="utf-8")
    ingest(store, embedder, settings, [folder / "gds.md"], cache=False)
    assert "PageRank" not in _listed(build_overview(store, default_config()))

    # another file that names it does corroborate it
    other = write_sources(tmp_path / "more", {"ranking.md": "# Ranking\n\nPageRank scores web pages by links."})
    ingest(store, embedder, settings, other, cache=False)
    assert "PageRank" in _listed(build_overview(store, default_config()))


def test_the_overview_shows_sections_gaps_and_the_threshold_from_the_config(store, embedder, settings, tmp_path):
    ingest(store, embedder, settings, write_sources(tmp_path / "sources", {**SMOKE_TEXTS, **CORROBORATES}), cache=False)

    view = build_overview(store, default_config())
    text = view.markdown()
    for heading in (
        "## Concepts by type",
        "## Recent additions",
        "## Active contradictions",
        "## Needs review",
        "## Knowledge gaps",
    ):
        assert heading in text
    assert "Person" in view.empty_types  # the sample names no person twice
    assert {r["path"].rsplit("/", 1)[-1] for r in view.recent} >= {"cypher.md", "neo4j-notes.md"}
    assert any(c["claim"] and c["opponent"] for c in view.contradictions)  # CQL is imperative vs declarative

    lenient = parse(default_config().model_dump_json().replace('"corroboration":2', '"corroboration":1'), "lenient")
    assert len(_listed(build_overview(store, lenient))) > len(_listed(view))


def test_the_wiki_files_and_the_asset(store, embedder, settings, tmp_path):
    sources = tmp_path / "sources"
    ingest(store, embedder, settings, write_sources(sources, {**SMOKE_TEXTS, **CORROBORATES}), cache=False)

    written = write_wiki(store, build_overview(store, default_config()), tmp_path)
    assert [p.name for p in written] == ["index.md", "log.md"]
    assert (tmp_path / "wiki" / "index.md").read_text(encoding="utf-8").startswith("# Overview")
    assert "**ingest**" in (tmp_path / "wiki" / "log.md").read_text(encoding="utf-8")

    neo4j = settings.neo4j
    result = dg.materialize(
        [overview_asset],
        raise_on_error=True,
        resources={
            "neo4j": Neo4jResource(uri=neo4j.uri, username=neo4j.username, password=neo4j.password),
            "graphwiki": GraphwikiConfig(home=str(tmp_path / "home"), sources_dir=str(sources)),
        },
    )
    [event] = result.get_asset_materialization_events()
    metadata = event.materialization.metadata
    assert metadata["overview"].value.startswith("# Overview")
    assert metadata["corroborated_concepts"].value >= 1
    assert (tmp_path / "home" / "wiki" / "index.md").exists()


def test_graphwiki_overview_prints_it(store, embedder, settings, tmp_path, monkeypatch, capsys):
    ingest(store, embedder, settings, write_sources(tmp_path / "sources", {**SMOKE_TEXTS, **CORROBORATES}), cache=False)
    for name, value in {
        "NEO4J_URI": settings.neo4j.uri,
        "NEO4J_PASSWORD": settings.neo4j.password,
        "GRAPHWIKI_HOME": str(tmp_path),
    }.items():
        monkeypatch.setenv(name, value)

    assert main(["overview", "--write"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Overview") and f"wrote {tmp_path / 'wiki' / 'index.md'}" in out


def test_the_bundled_sample_keeps_its_planted_contradiction(cli, store):
    """The quick start's own path: `graphwiki ingest data/sources`, then `graphwiki overview`.
    The sample states that Cypher is declarative and, under its alias CQL, that it is
    imperative; the two definitions are compared although their words are far apart."""
    from tests.support.paths import REPO_ROOT

    code, _ = cli("ingest", str(REPO_ROOT / "data" / "sources"))
    assert code == 0
    code, out = cli("overview")
    assert code == 0
    section = out.split("## Active contradictions", 1)[1].split("\n## ", 1)[0]
    assert "declarative" in section and "imperative" in section
