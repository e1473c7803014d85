"""A concept names something specific: one everyday word the text only uses is vocabulary;
the same word becomes a concept where the text says what it means or heads a section with it."""

from __future__ import annotations

from graphwiki_assets.core.llm.calls import ExtractRequest
from graphwiki_assets.core.llm.offline.parsed_extraction import extract

USED = (
    "Skein keeps its stability across upgrades. The stability of a build depends on its inputs. "
    "Stability matters to every team that ships with Skein. Teams report stability problems on the forum."
)


def _names(text: str) -> list[str]:
    return [c.name.lower() for c in extract(ExtractRequest(source_id="s", title="notes.md", text=text)).concepts]


def test_an_everyday_word_the_text_only_uses_is_no_concept():
    assert "stability" not in _names(USED)


def test_the_same_word_defined_is_a_concept():
    defined = "A lockfile is a file that pins every input of a build. " + USED.replace("stability", "lockfile")
    assert "lockfile" in _names(defined)


def test_a_compound_term_the_text_repeats_stays():
    text = "The build cache speeds up Skein. Skein fills the build cache on every run. Clear the build cache weekly."
    assert "build cache" in _names(text)


def _concepts(text: str, section: str = "") -> dict:
    response = extract(ExtractRequest(source_id="s", title="notes.md", text=text, section=section))
    return {c.name.lower(): c for c in response.concepts}


def test_an_everyday_word_heading_a_section_that_says_nothing_of_it_is_its_topic_only():
    text = "Run the examples below on every machine. Keep the generated key in a safe place."
    assert "examples" not in _concepts(text, section="Examples")


def test_a_heading_word_the_section_speaks_of_is_a_concept():
    text = "The lockfile pins every input of a build. Skein writes the lockfile after each run."
    assert "lockfile" in _concepts(text, section="Lockfile")


def test_a_heading_word_no_dictionary_holds_is_an_identifier():
    text = "Divide two floating point numbers with `quotf`. This will return 2.5."
    assert "quotf" in _concepts(text, section="quotf")


def test_a_person_s_full_name_before_a_noun_names_what_is_named_after_them():
    text = "When writing charts, remember the Peter Parker principle. Power asks for care in every template."
    assert "peter parker" not in _concepts(text)


def test_things_listed_and_taken_up_again_are_not_defined_one_by_one():
    text = (
        "Skein has grown for years. Stability, security and healthy governance -- these things are an "
        "absolute necessity if a project is to succeed."
    )
    stability = _concepts(text).get("stability")
    assert stability is None or not stability.definition


def test_this_later_in_a_text_points_at_the_sentence_before_not_at_the_text_s_subject():
    text = "Large firms began using Gradle in production. This was an acid test for the team."
    gradle = _concepts(text, section="Gradle")["gradle"]
    assert "acid test" not in gradle.description


def test_words_with_no_thing_in_them_are_no_claim():
    text = "Could Gradle meet the needs of every team? It appears so. Gradle builds every project in minutes."
    claims = [c.text for c in extract(ExtractRequest(source_id="s", title="notes.md", text=text)).claims]
    assert "It appears so." not in claims
    assert any(c.startswith("Gradle builds") for c in claims)
