"""What a concept is leads what is said of it: the offline summary opens with the definition a
source stated, and a concept's line in an answer gives its other names."""

from __future__ import annotations

from graphwiki_assets.core.llm.calls import SummaryRequest
from graphwiki_assets.core.llm.offline.answer import summarize
from graphwiki_assets.core.query.answer import concept_fact_text


def test_the_summary_opens_with_the_definition_whatever_the_newer_facts_say():
    req = SummaryRequest(
        name="Quarrel",
        current_summary="Version 2 of Quarrel moved its settings.",
        definition="Quarrel is a query language for ledgers.",
        facts=["Quarrel 3 adds streaming.", "Teams adopt Quarrel for audits."],
    )
    assert summarize(req).summary.startswith("Quarrel is a query language for ledgers.")


def test_a_definitional_fact_with_an_article_leads_when_no_definition_was_kept():
    req = SummaryRequest(name="QL", facts=["Teams adopt QL for audits.", "A QL is a ledger query."])
    assert summarize(req).summary.startswith("A QL is a ledger query.")


def test_an_answer_line_gives_other_names_but_not_spellings_of_the_name():
    line = concept_fact_text("DCL", "Concept", "A DCL is a ledger.", ["dcl", "DCLs", "Declared Ledger"])
    assert line == "DCL (Concept; also Declared Ledger): A DCL is a ledger."
    assert concept_fact_text("DCL", "Concept", "A DCL is a ledger.") == "DCL (Concept): A DCL is a ledger."
