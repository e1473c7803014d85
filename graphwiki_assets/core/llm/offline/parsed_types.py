"""A concept's type from what the parse says: the entity label, a stated kind, a head noun.

Entity labels reach the schema config's types through the mapping each type states
(``entity_labels`` in ``graphwiki.yaml``, carried by ``TypeHint``); with no config the
labels map to the general preset's names. A word (a definition's "metric", a name's head
noun "server") is returned as the word: the taxonomy maps it through its ``includes`` and
kinds (``core/ingest/taxonomy.py``), and what maps nowhere gets the fallback type there.
"""

from __future__ import annotations

from graphwiki_assets.core.llm.calls import TypeHint
from graphwiki_assets.core.llm.offline.candidates import has_name_mark
from graphwiki_assets.core.llm.offline.parsed_names import Candidate

# OntoNotes labels (the English pipeline's) to the general preset's types.
DEFAULT_LABEL_TYPES = {
    "PERSON": "Person",
    "ORG": "Organization",
    "GPE": "Place",
    "LOC": "Place",
    "FAC": "Place",
    "PRODUCT": "Product",
    "EVENT": "Event",
    "WORK_OF_ART": "Creative Work",
    "LAW": "Concept",
    "LANGUAGE": "Concept",
    "NORP": "Concept",
}
FALLBACK_WORD = "Concept"


class Typer:
    def __init__(self, hints: list[TypeHint]):
        stated = {label.upper(): h.name for h in hints for label in h.entity_labels}
        self.labels = stated if any(h.entity_labels for h in hints) else DEFAULT_LABEL_TYPES

    def label_type(self, c: Candidate) -> str | None:
        """The label the recogniser gives most of a proper name's mentions, mapped. A label it
        gives a minority of them is a guess it did not repeat, and technical names (the ones a
        news-trained recogniser never saw) draw such guesses: "Neo4j" a person in one sentence,
        nothing in the next nine."""
        if not c.proper or c.name.islower() or any(has_name_mark(w) for w in c.name.split()):
            return None  # a lowercase word or an identifier-shaped name ("PageRank") is no news entity
        for label, count in c.labels.most_common():
            if 2 * count <= max(c.mentions, 1):
                return None
            if " " not in c.name and count < 2:
                return None  # one capitalised word labelled once is as often a tool as a person or a firm
            if label in self.labels:
                return self.labels[label]
        return None

    def type_of(self, c: Candidate) -> str:
        # What a sentence states ("X is a library") outranks the recogniser's guess, which
        # outranks the bare form of the name.
        if c.stated_type:
            return _as_type(c.stated_type)
        if (labelled := self.label_type(c)) is not None:
            return labelled
        if c.heads:
            return _as_type(c.heads.most_common(1)[0][0])
        return FALLBACK_WORD


def _as_type(word: str) -> str:
    """A noun as a type name is written as one ("store" -> "Store"); a mixed-case word
    ("gRPC") is kept as written."""
    return word[:1].upper() + word[1:] if word.islower() else word
