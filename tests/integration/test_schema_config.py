"""The schema config (graphwiki.yaml): validated as a whole with errors that name the file and
the problem; its taxonomy types what extraction finds (mapping or dropping, and counting, what
it does not list); its version is recorded on the nodes it produced, so editing it and
re-ingesting re-types them."""

from __future__ import annotations

import pytest

from graphwiki_assets.cli.main import main
from graphwiki_assets.core.config import ConfigError, default_config, load_config, parse, preset_text
from graphwiki_assets.core.config.load import PRESETS
from graphwiki_assets.core.ingest.pipeline import IngestConfig, Ingestor, ingest_documents, read_paths
from graphwiki_assets.core.ingest.taxonomy import TypeMapper
from graphwiki_assets.core.llm.calls import ExtractedClaim, ExtractedConcept, ExtractResponse
from graphwiki_assets.core.llm.client import build_llm
from tests.support.ingest import SMOKE_TEXTS, write_sources

TOOLS = """
purpose:
  description: Software tools and the languages they speak.
taxonomy:
  fallback: null
  types:
    - name: Technology
      definition: A piece of software, a language or a library.
      includes: [language, library, database, software]
thresholds:
  staleness_days: 30
"""


def test_both_presets_are_valid_and_the_general_one_is_the_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in PRESETS:
        assert parse(preset_text(name), name).taxonomy.types
    loaded = load_config(None, tmp_path)
    assert loaded.origin == "preset:general" and loaded.config == default_config()


def test_a_file_in_the_home_is_found_and_an_explicit_one_wins(tmp_path):
    (tmp_path / "graphwiki.yaml").write_text(TOOLS, encoding="utf-8")
    other = tmp_path / "other.yaml"
    other.write_text(preset_text("software-architecture"), encoding="utf-8")

    assert load_config(None, tmp_path).config.taxonomy.names() == ["Technology"]
    assert "Service" in load_config(other, tmp_path).config.taxonomy.names()


def test_the_version_follows_the_content_not_the_layout():
    tools = parse(TOOLS, "a")
    reordered = parse(
        "# a comment\nthresholds:\n  staleness_days: 30\n" + TOOLS.replace("thresholds:\n  staleness_days: 30\n", ""),
        "b",
    )
    assert reordered.version == tools.version
    stricter = parse(TOOLS.replace("staleness_days: 30", "staleness_days: 7"), "c")
    assert stricter.version != tools.version
    # a threshold does not change what a source yields, so it does not re-process sources
    assert stricter.extraction_version == tools.extraction_version
    retyped = parse(TOOLS.replace("[language, library, database, software]", "[language]"), "d")
    assert retyped.extraction_version != tools.extraction_version


@pytest.mark.parametrize(
    "text, problem",
    [
        ("purpose: [unclosed", "not valid YAML"),
        ("- just\n- a list", "must be a mapping"),
        (TOOLS.replace("fallback: null", "fallbak: null"), "taxonomy.fallbak: Extra inputs are not permitted"),
        (TOOLS.replace("fallback: null", "fallback: Gadget"), "fallback 'Gadget' is not one of the types"),
        (
            TOOLS.replace("includes: [language", "relations: [KNOWS]\n      includes: [language"),
            "unknown relation type",
        ),
        (
            TOOLS.replace("thresholds:", "    - name: Language\n      definition: A language.\nthresholds:"),
            "listed under both Technology and Language",
        ),
        (TOOLS.replace("staleness_days: 30", "staleness_days: 0"), "thresholds.staleness_days"),
    ],
)
def test_a_malformed_config_is_refused_with_the_file_and_the_problem(tmp_path, text, problem):
    path = tmp_path / "graphwiki.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(path) in str(caught.value) and problem in str(caught.value)


def test_extracted_types_are_kept_mapped_sent_to_the_fallback_or_dropped_and_counted():
    general = TypeMapper(default_config().taxonomy)
    assert general.map("person") == ("Person", "kept")
    assert general.map("Cities") == ("Place", "mapped")
    assert general.map("American rock band") == ("Organization", "mapped")
    assert general.map("Whatsit") == ("Concept", "fallback")

    tools = TypeMapper(parse(TOOLS, "tools").taxonomy)
    extraction = ExtractResponse(
        concepts=[ExtractedConcept(name="Cypher", type="Language"), ExtractedConcept(name="Ada", type="Person")],
        claims=[
            ExtractedClaim(text="Ada wrote no Cypher.", about=["Ada", "Cypher"]),
            ExtractedClaim(text="Ada was born in London.", about=["Ada"]),
        ],
    )
    typed, counts = tools.apply(extraction)
    assert [(c.name, c.type, c.extracted_type) for c in typed.concepts] == [("Cypher", "Technology", "Language")]
    assert [c.about for c in typed.claims] == [["Cypher"]]  # a claim about nothing left is dropped
    assert typed.dropped == 2  # Ada and her claim
    assert counts.as_dict()["dropped"] == 1 and counts.as_dict()["off_taxonomy_types"] == {"Person": 1}


def _ingest(store, embedder, settings, paths, schema):
    ingestor = Ingestor(store=store, embedder=embedder, llm=build_llm(settings.llm), config=IngestConfig(schema=schema))
    return ingest_documents(ingestor, read_paths(paths)).as_dict()


def _nodes(store, label: str) -> list[dict]:
    return store.query(
        f"MATCH (n:{label}) RETURN n.name AS name, n.path AS path, n.type AS type, "
        "n.extracted_type AS extracted, n.config_version AS version ORDER BY n.name, n.path"
    )


def test_editing_the_taxonomy_and_re_ingesting_re_types_the_nodes(store, embedder, settings, tmp_path):
    paths = write_sources(tmp_path / "sources", SMOKE_TEXTS)
    general, tools = default_config(), parse(TOOLS, "tools")

    first = _ingest(store, embedder, settings, paths, general)
    names = set(general.taxonomy.names())
    assert first["config_version"] == general.version
    assert all(c["type"] in names and c["version"] == general.version for c in _nodes(store, "Concept"))
    assert {s["version"] for s in _nodes(store, "Source")} == {general.version}
    assert _ingest(store, embedder, settings, paths, general)["sources"]["unchanged"] == len(paths)

    again = _ingest(store, embedder, settings, paths, tools)

    assert again["sources"]["new"] == len(paths)  # processed again under the new taxonomy
    assert again["taxonomy"]["dropped"] >= 1
    cypher = next(c for c in _nodes(store, "Concept") if c["name"] == "Cypher")
    assert (cypher["type"], cypher["extracted"], cypher["version"]) == ("Technology", "Language", tools.version)
    assert {s["version"] for s in _nodes(store, "Source")} == {tools.version}
    retyped = [c for c in _nodes(store, "Concept") if c["version"] == tools.version]
    assert retyped and all(c["type"] == "Technology" for c in retyped)


def test_a_malformed_config_stops_the_cli_before_anything_is_written(store, settings, tmp_path, monkeypatch, capsys):
    bad = tmp_path / "graphwiki.yaml"
    bad.write_text(TOOLS.replace("fallback: null", "fallback: Gadget"), encoding="utf-8")
    write_sources(tmp_path / "sources", SMOKE_TEXTS)
    for name, value in {
        "NEO4J_URI": settings.neo4j.uri,
        "NEO4J_PASSWORD": settings.neo4j.password,
        "GRAPHWIKI_HOME": str(tmp_path),
        "GRAPHWIKI_CONFIG": str(bad),
    }.items():
        monkeypatch.setenv(name, value)

    assert main(["config"]) == 2
    assert "fallback 'Gadget'" in capsys.readouterr().out
    assert main(["ingest", str(tmp_path / "sources")]) != 0
    assert "ConfigError" in capsys.readouterr().err
    assert store.query("MATCH (n) RETURN count(n) AS n")[0]["n"] == 0


def test_the_extractor_is_asked_for_the_taxonomy_types():
    from graphwiki_assets.core.llm.calls import ExtractBatchRequest, ExtractRequest, TypeHint
    from graphwiki_assets.core.llm.prompts import extract_messages

    request = ExtractBatchRequest(
        documents=[ExtractRequest(source_id="s", title="t", text="x")],
        types=[TypeHint(name="Technology", definition="A piece of software.")],
    )
    system = extract_messages(request)[0]["content"]
    assert "exactly one of these types: Technology (A piece of software)" in system


PARTS_ONLY = """
purpose:
  description: Software tools.
taxonomy:
  fallback: Thing
  types:
    - name: Technology
      definition: A piece of software, a language or a library.
      includes: [language, library, database, software]
      relations: [PART_OF]
    - name: Thing
      definition: Anything else.
"""


def test_a_type_that_may_not_take_part_in_related_to_gets_no_such_edge(store, embedder, settings, tmp_path):
    _ingest(store, embedder, settings, write_sources(tmp_path / "sources", SMOKE_TEXTS), parse(PARTS_ONLY, "p"))

    # claims do tie a Technology to another concept: without the rule they would make an edge
    assert (
        store.query(
            "MATCH (t:Concept {type: 'Technology'})<-[:ABOUT]-(:Claim)-[:ABOUT]->(o:Concept) "
            "WHERE o <> t RETURN count(*) AS n"
        )[0]["n"]
        > 0
    )
    assert store.query("MATCH (:Concept {type: 'Technology'})-[r:RELATED_TO]-() RETURN count(r) AS n")[0]["n"] == 0

    # the same sources under a config that allows the relation do make such edges
    allowed = parse(PARTS_ONLY.replace("relations: [PART_OF]", "relations: [PART_OF, RELATED_TO]"), "a")
    store.query_batched("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS")
    _ingest(store, embedder, settings, write_sources(tmp_path / "again", SMOKE_TEXTS), allowed)
    assert store.query("MATCH (:Concept {type: 'Technology'})-[r:RELATED_TO]-() RETURN count(r) AS n")[0]["n"] > 0
