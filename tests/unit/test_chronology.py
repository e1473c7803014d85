"""The order of two claims by their sources' dates, and what it allows a settlement."""

from __future__ import annotations

import datetime as dt

from graphwiki_assets.core.ingest.chronology import hold_reason, newer_of

OLD, NEW = dt.date(2015, 3, 1), dt.date(2024, 6, 1)


def test_the_newer_claim_is_named():
    newer, words = newer_of("claim-a", OLD, "claim-b", NEW)
    assert newer == "claim-b"
    assert "claim-b (2024-06-01) is newer than claim-a (2015-03-01)" == words


def test_undated_or_same_day_claims_are_not_ordered():
    assert newer_of("claim-a", None, "claim-b", NEW)[0] == ""
    assert "claim-a has no dated source" in newer_of("claim-a", None, "claim-b", NEW)[1]
    assert newer_of("claim-a", NEW, "claim-b", NEW)[0] == ""


def test_an_older_loser_may_be_superseded_by_a_later_source():
    assert hold_reason("winner", NEW, "loser", OLD, dt.date(2025, 1, 1)) is None


def test_the_newer_claim_is_never_superseded():
    why = hold_reason("winner", OLD, "loser", NEW, dt.date(2025, 1, 1))
    assert why and "never superseded automatically" in why


def test_a_source_older_than_the_loser_cannot_settle():
    why = hold_reason("winner", dt.date(2021, 1, 1), "loser", dt.date(2020, 1, 1), dt.date(2016, 1, 1))
    assert why and "the siding source (2016-01-01) is older than loser (2020-01-01)" in why


def test_a_dated_claim_is_not_superseded_by_one_of_unknown_age():
    assert hold_reason("winner", None, "loser", NEW, None)
    assert hold_reason("winner", NEW, "loser", None, None)
    assert hold_reason("winner", None, "loser", None, None) is None  # no dates at all: ingest order
