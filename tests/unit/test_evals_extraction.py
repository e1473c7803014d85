"""The extraction eval: matching and scoring on hand-made gold and extractions, then one
tiny invented document through ingest's extraction stage (offline rules, real embeddings).
No eval document is used here."""

from __future__ import annotations

import json

import numpy as np
import pytest

from graphwiki_assets.cli.main import main
from graphwiki_assets.core.evals import extraction as ex
from graphwiki_assets.core.llm.calls import ExtractedClaim, ExtractedConcept
from graphwiki_assets.core.llm.client import build_llm

DOC = ex.GoldDoc(
    id="d1",
    title="Tarnwell",
    text="",
    split="tune",
    entities=(
        ex.GoldEntity("Tarnwell Mill", "ORG", ("the Mill",)),
        ex.GoldEntity("Ada Quell", "PER", ()),
        ex.GoldEntity("Varn", "LOC", ()),
        ex.GoldEntity("1911", "TIME", ()),
    ),
    facts=(
        ex.GoldFact("Tarnwell Mill founded by Ada Quell", ("Tarnwell Mill", "Ada Quell")),
        ex.GoldFact("Tarnwell Mill location Varn", ("Tarnwell Mill", "Varn")),
        ex.GoldFact("Tarnwell Mill inception 1911", ("Tarnwell Mill", "1911")),
    ),
)


def test_coarse_type_reads_the_words_of_a_free_text_type():
    assert ex.coarse_type("Person") == "PER" and ex.coarse_type("Football Club") == "ORG"
    assert ex.coarse_type("Mountain villages") == "LOC" and ex.coarse_type("Year") == "TIME"
    assert ex.coarse_type("Concept") == "MISC" and ex.coarse_type("") == "MISC"


def test_concepts_match_by_normalised_name_or_alias_and_typed_by_class():
    concepts = [
        ExtractedConcept(name="The Mill", type="Company"),  # an alias, right class
        ExtractedConcept(name="ada quell", type="City"),  # the name, wrong class
        ExtractedConcept(name="Gorse", type="Person"),
    ]  # not in the gold
    m = ex.match_concepts(DOC, concepts)
    assert m["gold"] == 3  # the TIME entity is no concept
    assert m["found"] == {"Tarnwell Mill", "Ada Quell"} and m["found_typed"] == {"Tarnwell Mill"}
    assert [r["typed"] for r in m["extracted"]] == [True, False, False]
    assert m["missed"] == [{"name": "Varn", "type": "LOC"}]


def test_a_claim_states_a_fact_only_with_both_entities_and_enough_similarity():
    claims = [
        ExtractedClaim(text="Ada Quell founded Tarnwell Mill.", about=[]),
        ExtractedClaim(text="The Mill stands in Varn.", about=[]),  # entity by alias
        ExtractedClaim(text="Ada Quell liked rowing.", about=[]),
    ]  # one entity only
    # hand-made cosines: claim x fact
    claim_vectors = np.eye(3, dtype=np.float32)
    fact_vectors = np.array([[0.9, 0, 0.1], [0, 0.3, 0], [0, 0, 0]], dtype=np.float32)
    scores = ex.claim_fact_scores(DOC, claims, [], claim_vectors, fact_vectors)
    assert scores[0, 0] == pytest.approx(0.9)
    assert scores[1, 1] == pytest.approx(0.3)  # both entities present, low similarity
    assert np.isneginf(scores[2]).all() and np.isneginf(scores[0, 1])
    per_doc = [{"concepts": ex.match_concepts(DOC, []), "claims": claims, "n_facts": 3, "scores": scores}]
    at_half = ex.score(per_doc, 0.5)["claims"]
    assert (at_half["correct"], at_half["extracted"], at_half["found"], at_half["gold"]) == (1, 3, 1, 3)
    at_low = ex.score(per_doc, 0.2)["claims"]
    assert (at_low["correct"], at_low["found"]) == (2, 2)


def test_an_about_concept_counts_as_a_mention():
    concepts = [ExtractedConcept(name="Quell", aliases=["Ada Quell"])]
    claim = ExtractedClaim(text="She founded Tarnwell Mill.", about=["Quell"])
    scores = ex.claim_fact_scores(
        DOC, [claim], concepts, np.ones((1, 2), np.float32) / np.sqrt(2), np.ones((3, 2), np.float32) / np.sqrt(2)
    )
    assert scores[0, 0] == pytest.approx(1.0) and np.isneginf(scores[0, 1])


def test_loading_refuses_a_fact_about_an_unknown_entity_and_an_unknown_type(tmp_path):
    path = tmp_path / "gold.jsonl"
    path.write_text(
        json.dumps(
            {
                "id": "x",
                "text": "t",
                "entities": [{"name": "A", "type": "PER"}],
                "facts": [{"text": "A knows B", "entities": ["A", "B"]}],
            }
        )
        + "\n"
    )
    with pytest.raises(ValueError, match="'B', which is not among the entities"):
        ex.load_gold(path)
    path.write_text(json.dumps({"id": "x", "text": "t", "entities": [{"name": "A", "type": "Person"}]}) + "\n")
    with pytest.raises(ValueError, match="entity types must be among"):
        ex.load_gold(path)


GOLD = {
    "id": "g1",
    "title": "Tarnwell Mill",
    "split": "report",
    "text": "Tarnwell Mill is a paper mill in Varn. Ada Quell founded Tarnwell Mill in 1911.",
    "entities": [
        {"name": "Tarnwell Mill", "type": "ORG", "aliases": []},
        {"name": "Varn", "type": "LOC"},
        {"name": "Ada Quell", "type": "PER"},
        {"name": "1911", "type": "TIME"},
    ],
    "facts": [
        {"text": "Tarnwell Mill located in Varn", "entities": ["Tarnwell Mill", "Varn"]},
        {"text": "Tarnwell Mill founded by Ada Quell", "entities": ["Tarnwell Mill", "Ada Quell"]},
        {"text": "Tarnwell Mill inception 1911", "entities": ["Tarnwell Mill", "1911"]},
    ],
}


def test_a_document_through_the_extraction_stage_is_scored_consistently(embedder, settings, tmp_path):
    path = tmp_path / "gold.jsonl"
    path.write_text(json.dumps(GOLD) + "\n")
    result = ex.run_extraction(ex.load_gold(path), embedder, build_llm(settings.llm), name="tiny")
    assert result.documents == 1 and result.gold_concepts == 3 and result.gold_facts == 3
    assert result.llm_calls == 1 and result.backend.startswith("offline")
    detail = result.documents_detail[0]
    assert result.concepts.extracted == len(detail["concepts"])
    assert result.concepts.correct == sum(bool(c["matches"]) for c in detail["concepts"])
    assert result.claims.correct == sum(bool(c["states"]) for c in detail["claims"])
    assert result.claims.found + len(detail["missed_facts"]) == 3
    report = result.by_split["report"]
    assert (report.concepts, report.concepts_typed, report.claims) == (
        result.concepts,
        result.concepts_typed,
        result.claims,
    )
    recalls = [row.recall for row in result.sweep]
    assert recalls == sorted(recalls, reverse=True)  # a higher cut never finds more

    from graphwiki_assets.defs.evals.assets import extraction_metadata

    metadata = extraction_metadata(result)
    assert metadata["claims.recall"].value == result.claims.recall
    scores = {r.data["items"]: r.data for r in metadata["scores"].records}
    assert scores["concepts_typed"]["f1"] == result.concepts_typed.f1
    assert "data:image/png;base64," in metadata["plot"].value


def test_the_cli_prints_the_three_numbers(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("GRAPHWIKI_HOME", str(tmp_path))  # the eval's LLM cache lives under it
    path = tmp_path / "gold.jsonl"
    path.write_text(json.dumps(GOLD) + "\n")
    assert main(["eval", "extraction", "--gold", str(path)]) == 0
    out = capsys.readouterr().out
    assert "concepts        : P" in out and "concepts (typed): P" in out and "claims (cos >= 0.5): P" in out
