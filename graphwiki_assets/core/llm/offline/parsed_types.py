"""A concept's type from what the parse says: a stated kind, a head word that names a kind,
the entity label, a head noun.

Entity labels reach the schema config's types through the mapping each type states
(``entity_labels`` in ``graphwiki.yaml``, carried by ``TypeHint``); with no config the
labels map to the general preset's names. A word (a definition's "metric", a name's head
noun "server") is returned as the word: the taxonomy maps it through its ``includes`` and
kinds (``core/ingest/taxonomy.py``), and what maps nowhere gets the fallback type there.
"""

from __future__ import annotations

from graphwiki_assets.core.config.kinds import kinds_of
from graphwiki_assets.core.llm.calls import TypeHint
from graphwiki_assets.core.llm.offline.candidates import has_name_mark
from graphwiki_assets.core.llm.offline.parsed_names import Candidate
from graphwiki_assets.core.text.type_names import type_key

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


# Labels a news-trained recogniser gives any capitalised phrase of a technical text ("the
# Best Practices Guide" an organisation, "Kubernetes CLI" a person): a name's own head word
# that names a kind outranks them. The labels of kinds (a work, an event, a product, a law)
# already say what kind of thing the name is, and keep their word.
_AGENT_AND_PLACE_LABELS = frozenset({"PERSON", "ORG", "GPE", "LOC", "FAC", "NORP"})
# The labels one capitalised word earns once: a place's name is known by the word itself
# (the countries and cities a news corpus is full of), where a person's or a firm's label on
# one word is read off its context ("X said", an acronym), which technical text imitates
# ("UUID", "TLS" as organisations). Re-DocRED's tune half: typed precision 0.48 -> 0.60 with
# places, +0.01 more with persons and firms; the Helm docs: 11 of 18 such places right,
# 6 of 14 persons, about 1 in 4 firms.
_ONE_WORD_ONCE_LABELS = frozenset({"GPE", "LOC"})


class Typer:
    def __init__(self, hints: list[TypeHint]):
        stated = {label.upper(): h.name for h in hints for label in h.entity_labels}
        self.labels = stated if any(h.entity_labels for h in hints) else DEFAULT_LABEL_TYPES
        self.type_words = {type_key(w) for h in hints for w in (h.name, *h.includes)}

    def names_a_kind(self, word: str) -> bool:
        """A word for a kind of thing: a type's name or ``includes``, or a word of the kinds table."""
        return type_key(word) in self.type_words or bool(kinds_of(word))

    def kind_head(self, c: Candidate) -> str | None:
        """The head word most of a name's mentions have, when it is a word for a kind of thing
        ("guide" in "Chart Template Guide", "tool" in "the helm-2to3 tool")."""
        heads = c.heads + c.name_heads
        if not heads:
            return None
        word = heads.most_common(1)[0][0]
        return word if self.names_a_kind(word) else None

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
            if " " not in c.name and count < 2 and label not in _ONE_WORD_ONCE_LABELS:
                return None  # one capitalised word labelled once is as often a tool as a person or a firm
            if label in self.labels:
                return self.labels[label]
        return None

    def typed(self, c: Candidate) -> tuple[str, bool]:
        """The concept's type, and whether it is the recogniser's label alone (no stated kind,
        no head word for a kind): a guess, which the type vote counts only when repeated."""
        # What a sentence states ("X is a library") outranks the name's own word for its kind
        # ("the Helm Charts Guide"), which outranks the recogniser's guess at an agent or a
        # place, which outranks the bare form of the name.
        if c.stated_type:
            return _as_type(c.stated_type), False
        kind = self.kind_head(c)
        labelled = self.label_type(c)
        if kind is not None and (labelled is None or c.labels.most_common(1)[0][0] in _AGENT_AND_PLACE_LABELS):
            return _as_type(kind), False
        if labelled is not None:
            return labelled, kind is None
        if c.heads:  # a common noun phrase's head, whatever kind it names ("values file")
            return _as_type(c.heads.most_common(1)[0][0]), False
        return FALLBACK_WORD, False


def _as_type(word: str) -> str:
    """A noun as a type name is written as one ("store" -> "Store"); a mixed-case word
    ("gRPC") is kept as written."""
    return word[:1].upper() + word[1:] if word.islower() else word
