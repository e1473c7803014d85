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
