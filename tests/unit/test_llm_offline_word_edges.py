"""A name begins and ends where words do: a hyphenated word is one word, and a heading that
is a task names no thing."""

from __future__ import annotations

from graphwiki_assets.core.llm.calls import ExtractRequest
from graphwiki_assets.core.llm.offline.parsed_extraction import extract
from graphwiki_assets.core.nlp.model import load_pipeline


def _names(title: str, text: str) -> list[str]:
    return [c.name for c in extract(ExtractRequest(source_id="s", title=title, text=text)).concepts]


def test_a_hyphenated_word_is_one_token():
    words = [t.text for t in load_pipeline()("Skein runs a post-processor on read-only volumes.")]
    assert "post-processor" in words and "read-only" in words


def test_no_name_ends_inside_a_hyphenated_word():
    text = (
        "Skein supports post-processors. A post-processor is a program that rewrites the output. "
        "Skein runs every post-processor after the build."
    )
    found = _names("post.md", text)
    assert "post" not in [n.lower() for n in found]
    assert any(n.lower().startswith("post-processor") for n in found)


def test_a_heading_led_by_a_verb_is_a_task_not_a_concept():
    text = "# Join Skein\n\nSkein is a build tool for monorepos. You can join the Skein community on its forum."
    assert "Join Skein" not in _names("joining-skein.md", text)
    assert "Skein" in _names("joining-skein.md", text)


def test_a_heading_that_names_a_thing_is_still_the_title():
    text = "# Skein Registry\n\nThe Skein Registry stores build caches. It keeps every cache for a week."
    assert "Skein Registry" in _names("registry.md", text)
