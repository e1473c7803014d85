"""A concept's wiki page, read back with a markdown parser: front matter Obsidian reads as
properties, each claim with its status (a disputed one with what it contradicts, a superseded
one with what replaced it), links only to pages that exist, citations that number the
sources, and text from the graph shown as written, never taken for markup. Page names are
safe file names, unique, and kept from one export to the next."""

from __future__ import annotations

from graphwiki_assets.core.concepts.card import CardClaim, CardLink, CardOpponent, CardSource, ConceptCard
from graphwiki_assets.core.store.schema import AWAITING_CORROBORATION
from graphwiki_assets.core.wiki.markup import inline
from graphwiki_assets.core.wiki.names import Named, assign_stems, safe_stem
from graphwiki_assets.core.wiki.page import render_page
from graphwiki_assets.core.wiki.picture import draw_neighbourhood, picture_key
from tests.support.wikilinks import front_matter, headings, inline_children, section_items, wiki_links


def _card(**overrides) -> ConceptCard:
    data = dict(
        id="c-1",
        name="Cypher",
        type="Query Language",
        aliases=["CQL"],
        summary="Cypher is the query language of Neo4j.",
        independent_sources=2,
        updated_at="2026-11-30T10:11:12.000Z",
        claims=[
            CardClaim(
                id="k-1", text="Cypher was created for Neo4j.", status="current", sources=["s-a"], independent_sources=2
            ),
            CardClaim(
                id="k-4",
                text="Cypher has a GQL mode.",
                status="current",
                sources=["s-a"],
                needs_review=True,
                review_reason=AWAITING_CORROBORATION,
                independent_sources=1,
            ),
            CardClaim(
                id="k-2",
                text="Cypher is declarative.",
                status="disputed",
                sources=["s-a"],
                contradicts=["k-9"],
                opponents=[CardOpponent(id="k-9", text="CQL is imperative.", status="disputed")],
            ),
            CardClaim(
                id="k-3", text="Cypher 9 is the newest.", status="superseded", superseded_by="k-1", sources=["s-b"]
            ),
        ],
        related=[
            CardLink(id="c-neo4j", name="Neo4j", type="Database", weight=3),
            CardLink(id="c-gql", name="GQL", type="Query Language", weight=1),
        ],
        sources=[
            CardSource(
                id="s-b", title="Old notes", path="docs/b.md", status="superseded", ingested_at="2025-01-02T03:04:05Z"
            ),
            CardSource(
                id="s-a",
                title="Cypher",
                path="docs/a.md",
                date="2024-05-06",
                ingested_at="2026-11-01T00:00:00Z",
                last_seen_at="2026-11-29T08:00:00Z",
            ),
        ],
    )
    return ConceptCard(**{**data, **overrides})


def test_front_matter_is_yaml_with_id_type_aliases_status_and_day_updated():
    meta = front_matter(render_page(_card(), {}))
    assert meta == {
        "id": "c-1",
        "type": "Query Language",
        "aliases": ["CQL"],
        "status": "current",
        "updated": "2026-11-30",
        "independent_sources": 2,
    }
    flagged = front_matter(render_page(_card(needs_review=True, review_reason="derived from a changed source"), {}))
    assert flagged["needs_review"] == "derived from a changed source"


def test_the_page_has_its_sections_and_claims_with_their_status():
    page = render_page(_card(), {})
    assert headings(page, 1) == ["Cypher"]
    assert headings(page) == ["Summary", "Claims", "Related", "Sources"]
    claims = section_items(page, "Claims")
    # what holds comes first; a claim says how many files state it, or that one does so far
    assert claims[0] == "Cypher has a GQL mode. [1] — one source so far"
    assert claims[1] == "Cypher was created for Neo4j. [1] — 2 independent sources"
    assert claims[2].startswith("disputed: Cypher is declarative.")
    assert "contradicts “CQL is imperative.” (disputed)" in claims[2]
    assert claims[3].startswith("superseded: Cypher 9 is the newest.")
    assert "superseded by “Cypher was created for Neo4j.”" in claims[3]


def test_citations_number_the_sources_and_the_sources_carry_their_dates():
    page = render_page(_card(), {})
    sources = section_items(page, "Sources")
    # ordered by path: docs/a.md is [1], docs/b.md [2]
    assert sources[0] == "Cypher · docs/a.md · dated 2024-05-06 · ingested 2026-11-01 · last seen 2026-11-29"
    assert sources[1] == "Old notes · docs/b.md · superseded · undated · ingested 2025-01-02 · last seen unknown"
    claims = section_items(page, "Claims")
    assert "[1]" in claims[0] and "[2]" in claims[3]
    # the summary cites the sources still in play, not the superseded version
    assert "From sources [1]; backed by 4 claim(s) (1 disputed, 1 superseded)" in page


def test_related_concepts_link_only_to_pages_that_exist():
    page = render_page(_card(), {"c-neo4j": "Neo4j"})
    assert wiki_links(page) == ["Neo4j"]
    assert section_items(page, "Related") == [
        "Neo4j — Database, 3 shared claim(s)",
        "GQL — Query Language, 1 shared claim(s)",
    ]
    # a page named apart from another concept of the same name reads as its page name
    twin = render_page(_card(), {"c-neo4j": "Neo4j (Database)", "c-gql": "GQL"})
    assert wiki_links(twin) == ["Neo4j (Database)", "GQL"]
    assert section_items(twin, "Related")[0] == "Neo4j (Database) — Database, 3 shared claim(s)"


def test_text_from_the_graph_is_never_read_as_markup():
    hostile = "1. *not* [[Secret]] <b>x</b> #tag $x$ `code` %%hidden%% ==mark== a_b_c & &amp; | pipe"
    for text in (hostile, "# Heading?", "- item?", "> quote?", "2024) list?"):
        children = inline_children(inline(text))
        assert [c.type for c in children] == ["text"], text
        assert children[0].content == text
    page = render_page(_card(name="A [[B]] | C", claims=[CardClaim(id="k", text=hostile, status="current")]), {})
    assert wiki_links(page) == []
    assert section_items(page, "Claims") == [hostile]


def test_the_picture_is_drawn_only_for_a_concept_with_neighbours_and_redrawn_when_they_change():
    card = _card()
    assert picture_key(_card(related=[]), {}) is None
    key = picture_key(card, {})
    assert key and picture_key(card, {}) == key
    assert picture_key(card, {"c-gql": "GQL"}) != key  # a neighbour gained a page: drawn in colour
    assert draw_neighbourhood(card, {}).startswith(b"\x89PNG")
    page = render_page(card, {}, "images/Cypher (Query Language).png")
    [img] = [c for c in inline_children(page) if c.type == "image"]
    assert img.attrs["src"] == "images/Cypher%20%28Query%20Language%29.png"


def test_page_names_are_safe_file_names():
    assert safe_stem('A/B: "C"? <D> [E] #F ^G | H*') == "A B C D E F G H"
    assert safe_stem("Neo4j, Inc.") == "Neo4j, Inc"
    assert safe_stem("...") == "untitled"
    assert len(safe_stem("x" * 500)) <= 80


def test_page_names_are_unique_case_folded_and_kept_from_one_export_to_the_next():
    planet = Named("c-planet", "Mercury", "Planet", weight=5)
    element = Named("c-element", "mercury", "Element", weight=2)
    stems = assign_stems([element, planet], {})
    assert stems == {"c-planet": "Mercury", "c-element": "mercury (Element)"}
    # the element was there first: a better-supported newcomer of the same name does not rename its page
    kept = assign_stems([element, planet], {"c-element": "mercury"})
    assert kept == {"c-element": "mercury", "c-planet": "Mercury (Planet)"}
    # a person's own note, and the index and log, keep their names
    assert assign_stems([Named("c-x", "Index", "Topic")], {}, taken={"notes"}) == {"c-x": "Index (Topic)"}
    assert assign_stems([Named("c-n", "Notes", None)], {}, taken={"notes"}) == {"c-n": "Notes (c-n)"}
    # two of the same name and type still get two names
    twins = assign_stems([Named("c-aaaa1111", "Go", "Game"), Named("c-bbbb2222", "Go", "Game")], {})
    assert len({s.casefold() for s in twins.values()}) == 2
