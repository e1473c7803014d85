"""Communities: Leiden groups of the concept graph, each with a report; a community Leiden
finds again keeps its report and costs no LLM call; a failed report is asked for again."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.communities.detect import CommunityConfig, partition
from graphwiki_assets.core.communities.refresh import CommunityReportsFailed, list_communities, refresh_communities
from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.llm.rules_server import RulesServer
from graphwiki_assets.core.settings import LLMSettings
from tests.support.community_corpus import CHEESE, CHEESE_NAMES, SKY, SKY_NAMES
from tests.support.ingest import ingest, write_sources


def _top_community_of(store) -> dict[str, str]:
    rows = store.query("MATCH (c:Concept)-[:IN_COMMUNITY]->(k:Community {top: true}) RETURN c.name AS name, k.id AS k")
    return {r["name"]: r["k"] for r in rows}


@pytest.fixture
def two_topics(store, embedder, settings, tmp_path):
    ingest(store, embedder, settings, write_sources(tmp_path / "sources", {**SKY, **CHEESE}), cache=False)
    return tmp_path / "sources"


def test_leiden_levels_become_communities_known_by_their_members():
    rows = [
        {"id": "a", "levels": [1, 9]},
        {"id": "b", "levels": [1, 9]},
        {"id": "c", "levels": [1, 9]},
        {"id": "d", "levels": [2, 9]},
        {"id": "e", "levels": [2, 9]},
        {"id": "f", "levels": [3, 9]},
    ]
    found = partition(rows, min_size=3)
    by_members = {c.members: c for c in found.communities.values()}
    # {d, e} and {f} are too small to be a theme; {a, b, c} is one at the finest level, and
    # all six are one at the top
    assert set(by_members) == {("a", "b", "c"), ("a", "b", "c", "d", "e", "f")}
    small, whole = by_members[("a", "b", "c")], by_members[("a", "b", "c", "d", "e", "f")]
    assert (small.level, small.top, small.parent) == (0, False, whole.id)
    assert (whole.level, whole.top, whole.parent) == (1, True, None)
    # the same members at two levels are one community
    again = partition([{"id": x, "levels": [5, 7]} for x in "xyz"], min_size=3)
    assert len(again.communities) == 1 and next(iter(again.communities.values())).top


def test_two_separate_topics_land_in_different_communities_each_with_a_report(store, embedder, settings, two_topics):
    llm = build_llm(settings.llm)
    run = refresh_communities(store, embedder, llm)
    assert run.failed == [] and run.reported == run.communities >= 2 and run.llm_calls >= 1

    top = _top_community_of(store)
    sky = {top[n] for n in SKY_NAMES}
    cheese = {top[n] for n in CHEESE_NAMES}
    assert len(sky) == 1 and len(cheese) == 1 and sky != cheese

    reports = {c["id"]: c for c in list_communities(store)}
    sky_sources = {r["id"] for r in store.query("MATCH (s:Source) WHERE s.path CONTAINS 'sky-' RETURN s.id AS id")}
    for cid in sky | cheese:
        report = reports[cid]
        assert report["title"] and report["summary"] and report["kind"] == "extractive"
        # provenance through the members: a report cites only its own topic's sources
        assert report["sources"] and (set(report["sources"]) <= sky_sources) == (cid in sky)


def test_an_unchanged_graph_costs_no_call_and_a_changed_topic_only_its_own(store, embedder, settings, two_topics):
    llm = build_llm(settings.llm)
    first = refresh_communities(store, embedder, llm)
    before = {c["id"]: (c["title"], c["summary"]) for c in list_communities(store)}

    again = refresh_communities(store, embedder, llm)
    assert (again.llm_calls, again.new, again.reported, again.dropped) == (0, 0, 0, 0)
    assert {c["id"]: (c["title"], c["summary"]) for c in list_communities(store)} == before

    # a new source adds a member to the sky topic: its community is new, the cheese one is kept
    ingest(
        store,
        embedder,
        settings,
        write_sources(
            two_topics,
            {
                "sky-lens.md": (
                    "# Pellow Lens\n\nThe Pellow Lens is the eyepiece of the Mirelle Telescope. "
                    "Vanya Holt ordered the Pellow Lens for Kessa Observatory."
                )
            },
        ),
        cache=False,
    )
    cheese_before = {_top_community_of(store)[n] for n in CHEESE_NAMES}
    changed = refresh_communities(store, embedder, llm)
    top = _top_community_of(store)
    assert {top[n] for n in CHEESE_NAMES} == cheese_before
    assert top["Pellow Lens"] == top["Vanya Holt"] and top["Vanya Holt"] not in before
    assert changed.new >= 1 and changed.reported == changed.new and changed.dropped >= 1
    assert changed.kept >= 1 and changed.communities == first.communities


def test_a_failed_report_leaves_its_community_unreported_until_a_later_run(store, embedder, settings, two_topics):
    with RulesServer(fail_marker="Brannock", fail_task="community_reports") as server:
        failing = build_llm(
            LLMSettings(
                api_key="test", base_url=server.base_url, model="rules", timeout_s=10, max_retries=0, concurrency=2
            ),
            None,
            backoff_base=0.01,
            backoff_max=0.02,
        )
        run = refresh_communities(store, embedder, failing, CommunityConfig(per_call=1))
    # one report a call: every call that carried the marker (the cheese community, and any
    # community Leiden split from it whose facts name Brannock) fails its community alone
    failed = len(run.failed)
    assert failed >= 1 and failed == server.failed and run.reported == run.communities - failed
    with pytest.raises(CommunityReportsFailed, match=f"{failed} of .* communities have no report"):
        run.raise_for_failures()
    unreported = [c for c in list_communities(store) if not c["summary"]]
    assert sorted(c["id"] for c in unreported) == sorted(run.failed)

    later = refresh_communities(store, embedder, build_llm(settings.llm))
    assert later.reported == failed and later.new == 0 and later.failed == []
    assert all(c["summary"] for c in list_communities(store))
