"""Settling a dispute by hand: loser superseded, both keep CONTRADICTS, the decision recorded."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.lint import checks
from graphwiki_assets.core.lint.verify import verify_graph
from graphwiki_assets.core.review.resolve import DisputeError, resolve_dispute
from tests.support.clean_graph import NOW, plant_clean_graph


def claim(store, cid: str) -> dict:
    return store.query("MATCH (c:Claim {id: $id}) RETURN c {.*} AS c", id=cid)[0]["c"]


def add_claim(store, cid: str, contradicts: str, ids: dict) -> None:
    store.query(
        """
        MATCH (o:Claim {id: $other}), (s:Source {id: $src}), (k:Concept {id: 'cypher'})
        CREATE (c:Claim {id: $id, text: 'Cypher is procedural.', status: 'disputed', needs_review: false,
                         created_at: $now})-[:CONTRADICTS {detected_at: $now}]->(o),
               (c)-[:DERIVED_FROM]->(s), (c)-[:ABOUT]->(k)
        SET o.status = 'disputed'""",
        id=cid,
        other=contradicts,
        src=ids["cypher.md"],
        now=NOW,
    )


def test_the_loser_is_superseded_and_who_decided_when_and_why_is_recorded(store):
    plant_clean_graph(store)

    result = resolve_dispute(
        store, "claim-imperative", winner="claim-declarative", by="ana", reason="the manual says declarative", now=NOW
    )

    loser, winner = claim(store, "claim-imperative"), claim(store, "claim-declarative")
    assert (result.loser, result.winner, result.winner_status) == ("claim-imperative", "claim-declarative", "current")
    assert (loser["status"], loser["superseded_by"], winner["status"]) == ("superseded", "claim-declarative", "current")
    for c in (loser, winner):
        assert (c["decided_by"], c["decision_reason"]) == ("ana", "the manual says declarative")
        assert c["decided_at"].to_native() == NOW
    assert (
        store.query(
            "MATCH (:Claim {id: 'claim-imperative'})-[r:CONTRADICTS]-(:Claim {id: 'claim-declarative'}) "
            "RETURN count(r) AS n"
        )[0]["n"]
        == 1
    )
    assert checks.open_disputes(store, NOW).count == 0
    assert all(r.count == 0 for r in verify_graph(store))


def test_a_winner_with_another_open_dispute_stays_disputed(store):
    ids = plant_clean_graph(store)
    add_claim(store, "claim-procedural", contradicts="claim-declarative", ids=ids)

    result = resolve_dispute(store, "claim-imperative", winner="claim-declarative", now=NOW)

    assert result.winner_status == "disputed"
    assert claim(store, "claim-declarative")["status"] == "disputed"
    assert checks.disputed_iff_contradicted(store).count == 0


def test_the_losers_other_opponents_are_re_derived(store):
    ids = plant_clean_graph(store)
    add_claim(store, "claim-procedural", contradicts="claim-imperative", ids=ids)

    resolve_dispute(store, "claim-imperative", winner="claim-declarative", now=NOW)

    assert claim(store, "claim-procedural")["status"] == "current"  # its only opponent lost
    assert checks.disputed_iff_contradicted(store).count == 0


@pytest.mark.parametrize(
    "loser, winner, message",
    [
        ("claim-imperative", "claim-imperative", "against itself"),
        ("claim-gds-plugin", "claim-declarative", "do not contradict"),
        ("claim-nope", "claim-declarative", "no claim 'claim-nope'"),
    ],
)
def test_a_dispute_that_does_not_exist_is_refused(store, loser, winner, message):
    plant_clean_graph(store)

    with pytest.raises(DisputeError, match=message):
        resolve_dispute(store, loser, winner=winner)


def test_a_settled_dispute_cannot_be_settled_again(store):
    plant_clean_graph(store)
    resolve_dispute(store, "claim-imperative", winner="claim-declarative", now=NOW)

    with pytest.raises(DisputeError, match="already superseded"):
        resolve_dispute(store, "claim-declarative", winner="claim-imperative")
