"""Verbs a capital hides: "Join Helm maintainers", "Install Helm Diff first", a heading
"Migrating Helm v2 to v3", a reference entry's "Returns the first item".

A sentence's or a heading's first word is written with a capital whatever it is, and the
tagger reads a capitalised word before a proper noun as a proper noun too, so the recogniser
takes the instruction's verb into the name ("Join Helm" a person). The same tagger, given the
words with that first letter lowered, says what the word is; it is asked only about openings
that could hide one (a capitalised word before a proper noun), with the parser and the
recogniser off.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

VERB_TAGS = frozenset({"VB", "VBG"})  # an instruction's base form, a task's gerund
_TAGGER_ONLY = ("parser", "ner")
# What follows a base form that makes it an instruction: its object, a name or a determiner.
# Before a common noun the base form is as often a noun of a compound ("Release Notes").
_OBJECT_POS = frozenset({"PROPN", "DET", "PRON"})
# A capitalised first word the tagger may have read as a noun ("Lists all releases"), never a
# determiner, a pronoun or an auxiliary ("This", "Is it ...").
_MAY_BE_VERB = frozenset({"VERB", "NOUN", "PROPN"})


def reads_as_task(tagged: Any) -> bool:
    """The lowered words open with a gerund ("migrating Helm") or with a base form before its
    object ("install Helm Diff", "create your first chart")."""
    if len(tagged) < 2:
        return False
    return tagged[0].tag_ == "VBG" or (tagged[0].tag_ == "VB" and tagged[1].pos_ in _OBJECT_POS)


def _may_hide_a_verb(first: Any, second: Any | None) -> bool:
    return first.is_alpha and first.is_title and second is not None and second.pos_ == "PROPN"


def _lowered(text: str) -> str:
    return text[:1].lower() + text[1:]


def first_word(sentence: Any) -> Any | None:
    """A sentence's first token that is not whitespace."""
    return next((t for t in sentence if not t.is_space), None)


def _openings(
    nlp: Any,
    docs: Iterable[Any],
    said: Callable[[Any, Any], bool],
    ask: Callable[[Any, Any], bool],
    answer: Callable[[Any], bool],
) -> list[set[int]]:
    """For each parsed doc, the first tokens of the sentences whose opening the tagger already
    ``said`` is one, or, for those worth the ``ask``, whose words with the first letter lowered
    the tagger (parser and recogniser off) reads as one (``answer``)."""
    docs = list(docs)
    found: list[set[int]] = [set() for _ in docs]
    asks: list[tuple[int, int, str]] = []
    for n, doc in enumerate(docs):
        for sent in doc.sents:
            first = first_word(sent)
            if first is None:
                continue
            if said(first, sent):
                found[n].add(first.i)
            elif ask(first, sent):
                asks.append((n, first.i, _lowered(doc[first.i : sent.end].text)))
    for (n, i, _), tagged in zip(asks, nlp.pipe([text for _, _, text in asks], disable=_TAGGER_ONLY)):
        if answer(tagged):
            found[n].add(i)
    return found


def verb_openings(nlp: Any, docs: Iterable[Any]) -> list[set[int]]:
    """For each parsed doc, the indices of the tokens that open a sentence and are verbs: the
    tagger said so, or says so once the capital is lowered."""

    def hides_a_verb(first: Any, sent: Any) -> bool:
        return _may_hide_a_verb(first, first.doc[first.i + 1] if first.i + 1 < sent.end else None)

    return _openings(nlp, docs, lambda first, _: first.tag_ in VERB_TAGS, hides_a_verb, reads_as_task)


def _may_be_third_person(first: Any, _: Any) -> bool:
    return (
        first.is_alpha
        and first.is_title
        and first.lower_.endswith("s")
        and first.pos_ in _MAY_BE_VERB
        and len(first) > 3
    )


def third_person_openings(nlp: Any, docs: Iterable[Any]) -> list[set[int]]:
    """For each parsed doc, the first tokens of the sentences that open with a verb in the
    third person and so have no subject of their own ("Returns a boolean ...", "Removes given
    characters ..."): the way a reference entry describes what its heading names. The tagger
    reads such a word as a noun as often as a verb ("Lists all releases"), so it is asked
    again with the first letter lowered."""
    return _openings(
        nlp,
        docs,
        lambda first, sent: False,
        _may_be_third_person,
        lambda tagged: tagged[0].tag_ == "VBZ" and tagged[0].pos_ == "VERB",
    )


def verb_led(nlp: Any, texts: Iterable[str]) -> set[str]:
    """The texts (headings, titles) that read as a task once the first letter is lowered
    ("Migrating Helm v2 to v3", "Install Helm Diff"), not as a name."""
    texts = [t for t in dict.fromkeys(texts) if t and t[:1].isupper()]
    return {
        text
        for text, tagged in zip(texts, nlp.pipe([_lowered(t) for t in texts], disable=_TAGGER_ONLY))
        if reads_as_task(tagged)
    }
