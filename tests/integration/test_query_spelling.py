"""Names as a person types them, on a real graph: a misspelt name is answered about the concept
it means and the answer says which; another ending of a name reaches its concept; a name the
graph holds nothing close to still gets "the graph has no information"."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphwiki_assets.core.query import ask, refresh_projection
from graphwiki_assets.core.query.linking import link_entities, link_question
from graphwiki_assets.core.sources import sha256_text
from graphwiki_assets.server.mcp_models import AskResult
from tests.support.closest import assert_answered_about_closest
from tests.support.seed_graph import create_concepts

# id: (name, type, aliases, summary)
CONCEPTS: dict[str, tuple[str, str, list[str], str]] = {
    "c-am": (
        "Alertmanager",
        "Software",
        [],
        "Alertmanager deduplicates, groups and routes the alerts Prometheus sends to receivers.",
    ),
    "c-prom": ("Prometheus", "Software", [], "Prometheus is a monitoring system that scrapes metrics from targets."),
    "c-grafana": ("Grafana", "Software", [], "Grafana draws dashboards from time series."),
    "c-router": ("Router", "Device", [], "A router forwards packets between networks."),
    "c-relabel": (
        "relabel_configs",
        "Configuration",
        [],
        "relabel_configs rewrite the labels of a scrape target before Prometheus scrapes it.",
    ),
}
# id: (text, about)
CLAIMS: dict[str, tuple[str, list[str]]] = {
    "cl-am-receivers": ("Alertmanager routes alerts to receivers such as email, Slack or PagerDuty.", ["c-am"]),
    "cl-prom-am": ("Prometheus sends firing alerts to Alertmanager.", ["c-prom", "c-am"]),
    "cl-relabel-drop": ("relabel_configs can drop a target or rewrite its labels before the scrape.", ["c-relabel"]),
    "cl-grafana-prom": ("Grafana draws dashboards from Prometheus queries.", ["c-grafana", "c-prom"]),
}


def _build(store, embedder, concepts: dict, claims: dict) -> None:
    """One source per claim, written as ingest writes concepts, claims and their provenance."""
    now = datetime.now(UTC).isoformat()
    texts = {f"src-{cl}": text for cl, (text, _) in claims.items()}
    vectors = dict(zip(texts, embedder.encode(list(texts.values()))))
    store.query(
        "UNWIND $rows AS r CREATE (s:Source) SET s = r, s.ingested_at = datetime($now), s.last_seen_at = datetime($now)",
        now=now,
        rows=[
            {
                "id": sid,
                "title": sid,
                "path": f"docs/{sid}.md",
                "paths": [f"docs/{sid}.md"],
                "text": text,
                "sha256": sha256_text(text),
                "status": "current",
                "embedding": vectors[sid].tolist(),
            }
            for sid, text in texts.items()
        ],
    )
    sources = {cid: [f"src-{cl}" for cl, (_, about) in claims.items() if cid in about] for cid in concepts}
    c_vecs = embedder.encode([f"{name}. {summary}" for name, _, _, summary in concepts.values()])
    create_concepts(store, concepts, c_vecs, sources)
    cl_vecs = embedder.encode([text for text, _ in claims.values()])
    store.query(
        "UNWIND $rows AS r MATCH (s:Source {id: r.source}) "
        "CREATE (cl:Claim)-[:DERIVED_FROM]->(s) SET cl = r.props, cl.created_at = datetime(), cl.updated_at = datetime() "
        "WITH cl, r UNWIND r.about AS cid MATCH (c:Concept {id: cid}) CREATE (cl)-[:ABOUT]->(c)",
        rows=[
            {
                "source": f"src-{cl}",
                "about": about,
                "props": {
                    "id": cl,
                    "text": text,
                    "embedding": vec.tolist(),
                    "status": "current",
                    "needs_review": False,
                },
            }
            for (cl, (text, about)), vec in zip(claims.items(), cl_vecs)
        ],
    )
    store.query(
        "UNWIND $pairs AS p MATCH (a:Concept {id: p[0]}), (b:Concept {id: p[1]}) "
        "CREATE (a)-[:RELATED_TO {claims: [p[2]], weight: 1}]->(b)",
        pairs=[[about[0], other, cl] for cl, (_, about) in claims.items() for other in about[1:]],
    )
    store.query("CALL db.awaitIndexes(60)")
    refresh_projection(store)


@pytest.fixture
def monitoring(store, embedder):
    _build(store, embedder, CONCEPTS, CLAIMS)
    return store


def test_a_misspelt_name_links_by_spelling_to_the_concept_it_means(monitoring, embedder):
    linking = link_entities(monitoring, embedder, ["Alertmanger", "Grafna", "Promethues"])
    assert [(link.concept_id, link.match) for link in linking.links] == [
        ("c-am", "fuzzy"),
        ("c-grafana", "fuzzy"),
        ("c-prom", "fuzzy"),
    ]
    assert all(0.88 <= link.score < 1 for link in linking.links) and linking.unlinked == []


def test_a_misspelt_name_in_a_question_the_router_named_nothing_in_links_too(monitoring):
    links = link_question(monitoring, "How does the Alertmanger route alerts to receivers?")
    # "route" is one letter from "Router", as a misspelt name would be, but it is an everyday word
    assert [(link.mention, link.concept_id, link.match) for link in links] == [("Alertmanger", "c-am", "fuzzy")]
    assert link_question(monitoring, "Which receivers does it route to?") == []


def test_a_misspelt_question_is_answered_about_the_concept_and_says_which(monitoring, embedder, offline_llm):
    answer = ask(monitoring, embedder, offline_llm, "What is Alertmanger?")

    note = assert_answered_about_closest(answer, "Alertmanager", "Alertmanger", "c-am", "fuzzy")
    assert "routes alerts to receivers" in answer.answer and "src-cl-am-receivers" in answer.citations
    # the same fields reach `--json`, the HTTP API and MCP: they all serve Answer.as_dict()
    result = AskResult.model_validate(answer.as_dict())
    assert result.rung == "fuzzy" and result.flags[0] == note and result.entities[0].match == "fuzzy"


def test_another_ending_of_a_name_reaches_its_concept(monitoring, embedder, offline_llm):
    # "relabeling" is not a key of 'relabel_configs'; the key index finds it by its root
    answer = ask(monitoring, embedder, offline_llm, "How does relabeling work?")

    assert answer.found and [e["concept_id"] for e in answer.entities] == ["c-relabel"]
    assert "drop a target" in answer.answer and "src-cl-relabel-drop" in answer.citations
    assert answer.answer.startswith('Answering about "relabel_configs" (closest match to ')


def test_an_inflected_mention_links_to_the_bare_name(store, embedder):
    _build(
        store,
        embedder,
        {"c-relabel": ("relabel", "Operation", [], "To relabel is to rewrite a target's labels.")},
        {"cl-relabel": ("Relabeling rewrites the labels of a target.", ["c-relabel"])},
    )
    linking = link_entities(store, embedder, ["relabeling", "relabelled"])
    assert [(link.mention, link.concept_id, link.match) for link in linking.links] == [
        ("relabeling", "c-relabel", "fuzzy"),
        ("relabelled", "c-relabel", "fuzzy"),
    ]
    assert [link.concept_id for link in link_question(store, "Why does relabeling drop targets?")] == ["c-relabel"]


@pytest.mark.parametrize("question", ["What is Zorblax?", "What is Promtail?", "How does Kafka store its offsets?"])
def test_a_name_with_no_close_concept_still_gets_no_information(monitoring, embedder, offline_llm, question):
    answer = ask(monitoring, embedder, offline_llm, question)

    assert (answer.found, answer.rung) == (False, "nothing"), answer.answer
    assert answer.answer == "The graph has no information on this."
    assert answer.entities == [] and answer.citations == [] and answer.near_matches == []


def test_a_term_a_source_states_word_for_word_is_quoted_before_near_names(monitoring, embedder, offline_llm):
    """No concept is named ROUTER_MODE_FLAG, Router is only a near name; a source that writes
    the term is what was asked about, so it answers, and the near name is still offered."""
    text = "The ROUTER_MODE_FLAG variable selects the cluster mode or the single mode."
    monitoring.query(
        "CREATE (s:Source {id: 'src-env', title: 'env', path: 'docs/env.md', paths: ['docs/env.md'], text: $text,"
        " sha256: $sha, status: 'current', embedding: $vector, ingested_at: datetime(), last_seen_at: datetime()})",
        text=text,
        sha=sha256_text(text),
        vector=embedder.encode([text])[0].tolist(),
    )
    monitoring.query("CALL db.awaitIndexes(60)")

    answer = ask(monitoring, embedder, offline_llm, "What is ROUTER_MODE_FLAG?")

    assert answer.rung == "raw_sources", answer.answer
    assert "ROUTER_MODE_FLAG variable selects" in answer.answer
    assert "c-router" in [m["concept_id"] for m in answer.near_matches]
