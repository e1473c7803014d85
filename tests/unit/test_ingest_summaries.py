"""What a summary refresh sends the LLM."""

from __future__ import annotations

from graphwiki_assets.core.ingest.summaries import SummaryConfig, _new_facts


def test_a_summary_refresh_does_not_pay_twice_for_a_fact_the_summary_already_is():
    row = {"summary": "Quillon is a tide gauge.", "facts": ["Quillon  is a tide gauge.", "Quillon reads in metres."]}
    assert _new_facts(row, SummaryConfig()) == ["Quillon reads in metres."]
