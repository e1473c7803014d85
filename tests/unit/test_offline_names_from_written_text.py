"""Names in written documentation: what a capital, a colon or a dash does not make a name,
and what a name's own head word says about its type."""

from __future__ import annotations

from graphwiki_assets.core.llm.calls import ExtractRequest
from graphwiki_assets.core.llm.offline.backend import OfflineLLM
from graphwiki_assets.core.llm.offline.surface import is_tokenised, normalize_source


def extract(text: str, title: str = "notes.md", section: str = ""):
    return OfflineLLM().extract(ExtractRequest(source_id="src", title=title, text=text, section=section))


def names(resp) -> set[str]:
    return {c.name for c in resp.concepts}


def test_an_instructions_verb_is_not_part_of_the_name_after_it():
    resp = extract(
        "Install Helm Diff before you upgrade. Helm Diff shows what an upgrade would change. "
        "Join Helm maintainers at the booth. Helm packages applications for Kubernetes."
    )
    found = names(resp)
    assert "Helm Diff" in found
    assert not {"Install Helm Diff", "Join Helm"} & found


TILLER = "Tiller was the server-side component of Helm 2. Helm 3 removed Tiller from the cluster."


def test_a_heading_that_reads_as_a_task_names_no_concept():
    assert "Tiller Removal" in names(extract(TILLER, section="Tiller Removal"))
    found = names(extract(TILLER, section="Migrating Helm v2 to v3"))
    assert "Tiller" in found and not any(n.startswith("Migrating") for n in found)


def test_record_fields_state_no_claim_and_name_nothing():
    resp = extract(
        "Chart Testing is a tool that lints and tests Helm charts.\n\nLOCATION: Room 410 A\n\n"
        "DATE: Thursday October 27\n\nLOCATION: Building C | Level 3 | Georgia Ballroom 1\n\n"
        "NOTE: Chart Testing runs in continuous integration."
    )
    texts = [c.text for c in resp.claims]
    assert not any(t.startswith(("LOCATION", "DATE")) for t in texts)
    assert not {"LOCATION", "Room 410 A", "DATE", "Thursday October 27"} & names(resp)
    assert any("runs in continuous integration" in t for t in texts)  # a key before a sentence keeps it


def test_a_spaced_dash_in_written_text_separates_two_names():
    assert normalize_source("Creating Porter Mixins - Sarah Christoff, Maintainer") == (
        "Creating Porter Mixins - Sarah Christoff, Maintainer"
    )
    # a tokeniser's output is undone: its hyphens, commas and brackets stand apart
    assert is_tokenised("Person - centered therapy , an approach ( see below )")
    assert not is_tokenised("Person-centered therapy, an approach (see below).")


def test_a_names_own_head_word_outranks_the_recognisers_guess_at_an_organisation():
    resp = extract(
        "Read the Chart Template Guide before writing templates. The Chart Template Guide "
        "explains functions and pipelines. Cisco Systems sells routers, and Cisco Systems hired staff."
    )
    types = {c.name: c.type for c in resp.concepts}
    assert types["Chart Template Guide"] == "Guide"  # the taxonomy maps it to Creative Work
    # a plural head names a firm or a whole, not one thing of that kind
    assert types.get("Cisco Systems") != "System"


def test_a_spaced_dash_inside_a_phrase_ends_one_name_and_starts_another():
    resp = extract(
        "The schedule lists Creating Porter Mixins - Sarah Christoff as a lightning talk. "
        "Sarah Christoff maintains Porter Mixins."
    )
    assert not any(" - " in n for n in names(resp))


def test_a_type_only_the_recogniser_gave_is_marked_a_guess():
    resp = extract(
        "Tova Renn joined the project in 2019. Tova Renn maintains the chart repository. "
        "The Chart Template Guide explains functions. The Chart Template Guide has examples."
    )
    concepts = {c.name: c for c in resp.concepts}
    assert concepts["Tova Renn"].type == "Person" and concepts["Tova Renn"].type_guessed
    assert concepts["Chart Template Guide"].type == "Guide" and not concepts["Chart Template Guide"].type_guessed


def test_a_reference_entry_defines_what_its_heading_names():
    # an API reference: the heading is the identifier, the text says what it does with no subject
    resp = extract(
        "Returns the number of elements in a sequence as an integer. Panics on a nil map.",
        section="Sequence Helpers > sizeOf",
    )
    entry = next(c for c in resp.concepts if c.name == "sizeOf")
    assert entry.definition == "sizeOf returns the number of elements in a sequence as an integer."
    assert any(c.text.startswith("sizeOf returns the number") and c.about[0] == "sizeOf" for c in resp.claims)


def test_a_function_word_heading_or_a_title_is_no_reference_entry():
    text = "Returns the boolean negation of its argument."
    assert not names(extract(text, section="Logic > not"))  # "not" is no name a question could use
    # the document's title is not what an entry's sentence is about
    resp = extract(text, title="Guide To Template Functions", section="")
    assert not any("returns the boolean negation" in (c.definition or "") for c in resp.concepts)


def test_names_given_as_examples_of_a_kind_take_that_kind():
    # Hearst's patterns: "Xs such as A", "Xs like A", "Xs including A", "A and other Xs"
    types = lambda text: {c.name: c.type for c in extract(text).concepts}  # noqa: E731
    assert types("Databases such as Quillstore, Brindle and Marrowdb are supported.") == {
        "Quillstore": "Database",
        "Brindle": "Database",
        "Marrowdb": "Database",
    }
    assert types("It runs on schedulers like Tarnwell and Cobaltweir.")["Cobaltweir"] == "Scheduler"
    assert types("We moved Pellstore, Ferrix and other object stores to the new cluster.")["Ferrix"] == "Store"
    # a definition outranks an example; a verb's "like" gives no kind
    assert types("Quillstore is a cache. Databases such as Quillstore are fast.")["Quillstore"] == "Cache"
    assert "Seqtool" not in {n for n, t in types("Seqtool works like the bash seq command.").items() if t != "Concept"}


def test_a_definition_list_item_defines_its_term_whatever_its_parse_says():
    text = (
        "The scheduler has these modes:\n\nDrain mode: Waits until all workers are idle and all queues are empty.\n\n"
        "Soft quota \u2014 a limit that warns before it refuses."
    )
    resp = OfflineLLM().extract(
        ExtractRequest(source_id="src", title="modes.md", text=text, terms=["Drain mode", "Soft quota"])
    )
    defined = {c.name: c.definition for c in resp.concepts}
    assert defined["Drain mode"] == "Drain mode: Waits until all workers are idle and all queues are empty."
    assert defined["Soft quota"] == "Soft quota \u2014 a limit that warns before it refuses."
    about = {c.text: c.about[0] for c in resp.claims}
    assert about["Drain mode: Waits until all workers are idle and all queues are empty."] == "Drain mode"


def test_one_word_labelled_once_is_typed_only_as_a_place():
    # a place is known by its name; a person's or a firm's label on one word is a guess at context
    types = {c.name: (c.type, c.type_guessed) for c in extract("The maintainers met in Lisbon in May.").concepts}
    assert types["Lisbon"] == ("Place", True)
    types = {c.name: c.type for c in extract("Kelso said the release of the chart was late.").concepts}
    assert types.get("Kelso", "Concept") == "Concept"


def test_a_defined_terms_short_form_in_brackets_is_its_alias_and_its_pieces_no_names():
    text = "Quorum Lease Protocol (QLP): Keeps one writer per shard while the quorum stands."
    resp = OfflineLLM().extract(
        ExtractRequest(source_id="src", title="terms.md", text=text, terms=["Quorum Lease Protocol (QLP)"])
    )
    [term] = [c for c in resp.concepts if c.name == "Quorum Lease Protocol"]
    assert "QLP" in term.aliases and term.definition.startswith("Quorum Lease Protocol (QLP): Keeps")
    assert not {"Lease Protocol", "Quorum Lease"} & {c.name for c in resp.concepts}


def test_a_common_noun_given_as_an_example_takes_no_kind():
    found = {c.name: c.type for c in extract("It keeps the index and other files on the shared volume.").concepts}
    assert found.get("index", "Concept") == "Concept"
