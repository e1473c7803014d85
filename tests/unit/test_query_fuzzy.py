"""Names as a person types them: a misspelt or inflected mention links to the concept it
means when its spelling says so clearly, and to nothing when it does not."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.query import fuzzy
from graphwiki_assets.core.query.closeness import stands_for
from graphwiki_assets.core.query.fallback import closest_text
from graphwiki_assets.core.query.fuzzy import INFLECTED, NAMED, QUESTION, Candidate, decide, lucene_query, span_rule
from graphwiki_assets.core.query.linking import fuzzy_spans, question_spans, stand_in
from graphwiki_assets.core.query.models import Link


def _concepts(*names: str) -> list[Candidate]:
    return [Candidate(f"c-{n.lower().replace(' ', '-')}", n) for n in names]


def _chosen(mention: str, candidates: list[Candidate], rule: fuzzy.Rule = NAMED) -> str | None:
    best = decide(mention, candidates, rule).best
    return best.candidate.name if best else None


def test_a_misspelt_name_links_to_the_concept_it_means():
    assert _chosen("Alertmanger", _concepts("Alertmanager", "Prometheus", "Alert Rule")) == "Alertmanager"
    assert _chosen("Promethues", _concepts("Prometheus", "Alertmanager")) == "Prometheus"
    assert _chosen("Grafna", _concepts("Grafana", "Graphite")) == "Grafana"


def test_a_misspelling_of_an_alias_or_of_a_name_spaced_otherwise_links_too():
    assert _chosen("Alertmanger", [Candidate("c-am", "Prometheus Alertmanager", ("Alertmanager",))]) == (
        "Prometheus Alertmanager"
    )
    assert _chosen("Alertmanger", _concepts("Alert Manager")) == "Alert Manager"


@pytest.mark.parametrize(
    ("mention", "name"),
    [
        ("relabeling", "relabel"),
        ("relabelling", "relabel"),
        ("retries", "Retry"),
        ("policies", "Policy"),
        ("Alert Rules", "Alerting Rule"),
        ("configured", "Configuration"),
    ],
)
def test_a_plural_or_another_ending_of_the_name_links(mention, name):
    assert _chosen(mention, _concepts(name, "Prometheus")) == name


def test_an_inflection_scores_as_the_name_itself():
    assert fuzzy.similarity("relabeling", "relabel") == 100.0
    assert fuzzy.similarity("Alertmanger", "Alertmanager") < 100.0


def test_two_concepts_the_spelling_fits_alike_get_no_decision():
    decision = decide("Tesel", _concepts("Tessel", "Teasel"))
    assert decision.best is None and decision.ambiguous
    assert [s.candidate.name for s in decision.ranked] == ["Teasel", "Tessel"]  # both kept, by id


def test_the_best_must_lead_the_next_concept_by_the_margin():
    clear = decide("Alertmanger", _concepts("Alertmanager", "Alertmanagers Hub"))
    assert clear.best is not None and clear.ranked[0].score - clear.ranked[1].score >= NAMED.margin
    close = decide("Kubernets", [Candidate("c-1", "Kubernetes"), Candidate("c-2", "Kubernetes", ("K8s",))])
    assert close.best is None and close.ambiguous  # homonyms: the vector pass settles which


def test_an_unrelated_name_is_rejected():
    assert _chosen("Zorblax", _concepts("Zabbix", "Zookeeper", "Blackbox Exporter")) is None
    assert not decide("Zorblax", _concepts("Zabbix")).ambiguous


def test_a_mistyped_letter_in_a_short_name_is_another_name():
    assert _chosen("Regis", _concepts("Redis")) is None
    assert decide("k9s", _concepts("k8s")).ranked == []  # too short to judge by spelling


def test_a_name_with_a_word_more_is_another_thing_not_a_spelling():
    assert _chosen("Alertmanger", _concepts("Alertmanager UI")) is None
    assert _chosen("Elasticsearch", _concepts("Elasticsearch DB")) is None
    assert _chosen("Alertmanager config", _concepts("Alertmanager")) is None


def test_the_same_letters_as_a_name_are_marked_as_such():
    best = decide("relabel_configs", _concepts("relabel_configs")).best
    assert best is not None and best.spelled_alike and best.score == 100.0


def test_a_short_common_word_of_a_question_links_only_as_an_inflection():
    assert span_rule(["handle"], first=False) is INFLECTED
    assert _chosen("handle", _concepts("Handler"), INFLECTED) is None  # one letter off, as a name would be
    assert _chosen("work", _concepts("Worker"), INFLECTED) is None
    assert _chosen("scraping", _concepts("scrape"), INFLECTED) == "scrape"
    assert span_rule(["k8s"], first=False) is None


def test_a_span_that_looks_like_a_name_or_is_long_may_be_misspelt():
    assert span_rule(["Alertmanger"], first=False) is QUESTION
    assert span_rule(["alertmanger"], first=False) is QUESTION  # long enough to be a name
    assert span_rule(["node_exportr"], first=False) is QUESTION
    assert span_rule(["Grafna"], first=True) is INFLECTED  # a capital that opens the question says nothing
    assert QUESTION.bar > NAMED.bar


def test_the_question_words_read_by_spelling_are_its_content_words_not_already_linked():
    question = "How does the Alertmanger handle it?"
    spans = question_spans(question)
    read = [text for _, _, text, _, _ in fuzzy_spans(question, spans, set())]
    assert read == ["Alertmanger handle", "Alertmanger", "handle"]
    assert fuzzy_spans(question, spans, {3}) == [s for s in fuzzy_spans(question, spans, set()) if s[2] == "handle"]
    assert (
        fuzzy_spans("What is it and how does it work?", question_spans("What is it and how does it work?"), set()) == []
    )


def test_the_index_is_asked_for_spellings_within_edits_scaled_by_length_and_for_the_root():
    assert lucene_query("alertmanger") == "alertmanger~2 OR alertmanger*^0.1"
    assert lucene_query("relabeling") == "relabeling~2 OR relabel~2 OR relabel*^0.1"
    assert lucene_query("grafna") == "grafna~1 OR grafna*^0.1"  # under seven letters two edits never clear the bar
    assert lucene_query("kubrnet") == "kubrnet~2 OR kubrnet*^0.1"
    assert lucene_query("k8s") == "k8s~1"
    assert lucene_query("ui") == "ui"  # two letters: exact only


def test_a_word_that_may_only_be_inflected_asks_for_its_root_alone():
    assert lucene_query("scraping", misspelt=False) == "scraping OR scrap*^0.1"
    # the words run together too: proper names are stored so ('alertmanager' for 'Alert Manager')
    assert "alertmanger~2" in lucene_query("alert manger").split(" OR ")


def test_the_query_escapes_lucene_syntax_and_leaves_long_names_to_the_vectors():
    assert lucene_query("c++ a:b").split(" OR ")[:2] == [r"c\+\+~1", r"a\:b~1"]
    assert lucene_query("one two three four five") == ""


def test_a_near_match_answers_only_when_it_carries_every_word_of_the_mention():
    assert stands_for("Neo4j GDS", ["Neo4j Graph Data Science", "GDS", "Graph Data Science"])
    assert stands_for("relabeling", ["relabel_configs"])
    assert stands_for("Kuberntes", ["Kubernetes"])
    assert not stands_for("Docker Swarm", ["Docker"])  # broader: it holds no answer on the swarm


def test_a_near_match_that_adds_words_to_the_mention_names_a_page_about_it_not_it():
    about = {"id": "c-perm", "name": "Permissions management for SQL storage backend", "aliases": [], "type": "Concept"}
    same = {"id": "c-gds", "name": "Neo4j Graph Data Science", "aliases": ["GDS"], "type": "Library"}
    assert stand_in("SQL storage backend", [(0.7, about)], 0.05) is None
    assert stand_in("Neo4j GDS", [(0.7, same)], 0.05) == (0.7, same)


def test_an_answer_about_the_closest_match_says_which():
    link = Link("Alertmanger", "c-am", "Alertmanager", "Software", "fuzzy", 0.9565)
    assert closest_text(link) == 'Answering about "Alertmanager" (closest match to "Alertmanger").'
