"""Which title or heading becomes the document's own concept, and what its sentences are about."""

from __future__ import annotations

from graphwiki_assets.core.llm.calls import ExtractRequest
from graphwiki_assets.core.llm.offline.parsed_extraction import extract
from graphwiki_assets.core.llm.offline.titles import names_entity


def run(title: str, text: str):
    return extract(ExtractRequest(source_id="src", title=title, text=text))


def names(resp) -> list[str]:
    return [c.name for c in resp.concepts]


def about(resp) -> dict[str, list[str]]:
    return {c.text: c.about for c in resp.claims}


def test_a_task_heading_is_no_concept_and_the_entity_inside_it_gets_the_claims():
    resp = run("Querying Neo4j", "# Querying Neo4j\n\nNeo4j stores data as nodes and relationships.")
    assert names(resp) == ["Neo4j"]
    assert about(resp)["Neo4j stores data as nodes and relationships."] == ["Neo4j"]
    resp = run("kestrel.md", "# Install Kestrel\n\nKestrel ships as a single binary. Ora Fenn maintains it.")
    assert "Install Kestrel" not in names(resp)
    assert about(resp)["Kestrel ships as a single binary."] == ["Kestrel"]
    resp = run("How tides work", "# How tides work\n\nThe Severn Estuary has a tidal range of 15 metres.")
    assert names(resp) == ["Severn Estuary"]


def test_a_generic_heading_is_no_concept_even_in_title_case_when_the_text_writes_it_in_lowercase():
    resp = run("Graph algorithms", "# Graph algorithms\n\nPageRank ranks nodes. GDS ships many graph algorithms.")
    assert {"PageRank", "GDS"} <= set(names(resp)) and "Graph Algorithms" not in names(resp)  # at most a common term
    assert about(resp)["PageRank ranks nodes."] == ["PageRank"]  # not the heading's claim
    resp = run("Grain Storage", "# Grain Storage\n\nThe Orrin Mill used silos for grain storage until 1950.")
    assert "Grain Storage" not in names(resp)
    assert "Overview" not in names(run("Overview", "# Overview\n\nHarborline is a hosting company."))


def test_a_heading_that_names_an_entity_stays_the_documents_subject():
    resp = run("Marrowby Press", "# Marrowby Press\n\nIt is an independent publisher based in Leeds.")
    assert names(resp)[0] == "Marrowby Press"
    assert about(resp)["It is an independent publisher based in Leeds."][0] == "Marrowby Press"
    resp = run(
        "Saving Private Ryan", "# Saving Private Ryan\n\nSaving Private Ryan is a 1998 war film by Steven Spielberg."
    )
    assert names(resp)[0] == "Saving Private Ryan"  # gerund-led, but the text uses it as a name
    assert names(run("notes.md", "# Cypher\n\nCypher is a query language."))[0] == "Cypher"


def test_a_lowercase_heading_the_text_defines_is_a_concept_through_its_definition():
    resp = run(
        "tidal-notes.md", "# Tidal counselling\n\nTidal counselling is a form of psychotherapy developed by Mira Lund."
    )
    assert "Tidal counselling" in names(resp) or "tidal counselling" in names(resp)


def test_article_titles_are_the_entity_whatever_their_shape():
    # Wikipedia-style records: the title names the article's subject even when the
    # paragraph does not repeat it, and even when it is lowercase or gerund-led.
    for title, text in [
        ("Hello Love", "Hello Love is the fourteenth studio album by American country music singer Sammy Kershaw."),
        ("Ferry pricing", "In the Orkney Islands, fares are set by the council each April."),
        ("Finding Tarrow", "Released in 2004, it grossed $3 million in the United Kingdom."),
    ]:
        assert names(run(title, text))[0] == title
    assert run("Finding Tarrow", "It was released in 2004 to mixed reviews.").claims[0].about == ["Finding Tarrow"]


def test_names_entity_reads_the_headings_shape_against_the_body():
    assert names_entity("Hello Love", "")
    assert names_entity("Neo4j", "")  # a capital or digit inside a word marks a name
    assert names_entity("Reading Football Club", "Reading Football Club was founded in 1871.")
    assert not names_entity("Reading Football Club", "")  # gerund-led and never used as a name
    assert not names_entity("What is Cypher", "Cypher is a query language.")
    assert not names_entity("Cypher", "")
    assert not names_entity("Vector indexes", "Vector indexes speed up search.")
