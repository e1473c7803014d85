"""Whether two claims make the same statement, and if so whether they agree.

"Halvard Bank employs 2,300 people" and "... employs 1,800 people" are one statement with
two values: a contradiction. "The span is 1,280 metres" and "... 4,200 feet" are one
statement with one value in two units: a restatement. "X reached orbit" and "X failed to
reach orbit" are one statement, once denied. Sameness is read on the parse, never on a list
of words, in two ways:

- **The same frame.** Each claim without its values (``values``) and its negations leaves
  its content lemmas in order; two claims with equal frames are one statement, compared
  value by value and by polarity.
- **The same slot.** Real sentences say more than one thing ("It was first released in 2013
  by ... at dotCloud, the company that ..."), so a value is also keyed by where it hangs in
  the dependency tree: the verb that governs it, the preposition or role that joins it, the
  noun it counts, its unit, and the verb's subject (the concept itself when the subject is
  its name or a pronoun). Two claims with a value under the same key, of the same polarity,
  and values that do not overlap, contradict.

Two values that both changed, one of them a date, are a change over time, not a
contradiction; a date said with "as of" is when a statement held, not what it states. Pairs
decided by neither way are left to the other rules (``None``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from graphwiki_assets.core.llm.calls import ClaimPair, Relation
from graphwiki_assets.core.llm.offline.inference import one_name
from graphwiki_assets.core.llm.offline.values import APPROXIMATE_WORDS, Found, Slot, value_slots

NEGATIONS = frozenset({"not", "no", "never", "neither", "nor", "without", "n't"})
# Verbs that deny their complement ("failed to reach orbit" says it did not reach orbit):
# the negative implicatives of the linguistics literature.
DENYING_VERBS = frozenset({"fail", "refuse", "decline", "neglect", "forget"})
_PRONOUNS = frozenset({"it", "they", "this", "these", "he", "she", "its", "their", "which", "that", "who"})
_SUBJECTS = ("nsubj", "nsubjpass", "csubj")
_DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})
_NAMING = ("compound", "amod", "nummod", "poss", "nmod", "flat")
MAX_SLOTS = 3  # a sentence with more values is a table row or a list, not one statement


@dataclass(frozen=True)
class Named:
    """The concept a pair hangs on: its name words that can pick it out, and whether its name
    is a proper name (a named thing) or a common noun (a kind, with many instances)."""

    words: frozenset[str]
    proper: bool


@dataclass(frozen=True)
class Keyed:
    """A value with where it hangs: (governing verb, joining word, counted noun) and the
    verb's subject without the concept's own names."""

    key: tuple[str, str, str]
    subject: frozenset[str]
    negated: bool
    slot: Slot
    about: bool  # the verb's subject is the concept (``_about``)
    named: bool  # the verb's subject names it


@dataclass(frozen=True)
class Statement:
    frame: tuple[str, ...]  # content lemmas in order, without values and negations
    slots: tuple[Slot, ...]
    negated: bool  # an odd number of negations
    keyed: tuple[Keyed, ...]
    about: bool  # the main verb's subject is the concept (``_about``)
    named: bool  # the main verb's subject names it


def compare(pair: ClaimPair, nlp: Any) -> tuple[Relation, str] | None:
    """``contradicts`` when the two claims are one statement, one denied or with another
    value; ``supports`` when they are one frame with the same values; else None."""
    texts = sides(pair)
    read = read_all(list(texts), nlp)
    return decide(read[texts[0]], read[texts[1]])


def sides(pair: ClaimPair) -> tuple[tuple[str, Named], tuple[str, Named]]:
    """Each claim's text with the concept's other names written as its name, and those name
    words: what ``read_all`` reads."""
    names = _name_words(pair.concept)
    new = one_name(pair.new_claim, pair.concept, pair.concept_aliases)
    old = one_name(pair.existing_claim, pair.concept, pair.concept_aliases)
    return (new, names), (old, names)


def decide(a: Statement | None, b: Statement | None) -> tuple[Relation, str] | None:
    """The relation of two read claims, when the parse decides it."""
    if a is None or b is None:
        return None
    # Both about the concept, and at least one saying so: two claims that each leave their
    # subject to their own document ("The population was 1,089") may speak of two things.
    if a.frame == b.frame and len(a.frame) >= 2 and a.about and b.about and (a.named or b.named):
        found = _same_frame(a, b)
        if found is not None:
            return found
    return _same_slot(a, b)


def _same_frame(a: Statement, b: Statement) -> tuple[Relation, str] | None:
    if len(a.slots) != len(b.slots):
        return None
    slots = list(zip(a.slots, b.slots))
    if not all(x.comparable(y) for x, y in slots):
        return None
    differing = [(x, y) for x, y in slots if not x.overlaps(y)]
    if a.negated != b.negated:
        return ("contradicts", "one claim negates the other") if not differing else None
    if not slots:
        return None  # the same words with the same polarity: the other rules say whether it is a restatement
    if differing and all(x.kind == "as of" for x, _ in differing):
        x, y = differing[0]
        return "supports", f"the same statement, said as of two dates ('{x.text}', '{y.text}')"
    if not differing:
        shown = [f"{x.text} / {y.text}" for x, y in slots if x.text.lower() != y.text.lower()]
        return "supports", "the same statement with the same values" + (f" ({', '.join(shown)})" if shown else "")
    return _opposed(differing)


def _same_slot(a: Statement, b: Statement) -> tuple[Relation, str] | None:
    """Values under the same key in claims that are not one frame."""
    matched = [
        (x.slot, y.slot)
        for x in a.keyed
        for y in b.keyed
        if x.about
        and y.about
        and (x.named or y.named)
        and x.key == y.key
        and x.subject == y.subject
        and x.negated == y.negated
        and x.slot.comparable(y.slot)
    ]
    differing = [(x, y) for x, y in matched if not x.overlaps(y)]
    if not differing or any(x.kind == "as of" for x, _ in differing):
        return None
    if all(x.kind != "date" for x, _ in differing) and _different_times(a.slots, b.slots):
        return None  # each claim is dated, at other times: a change, not two values at once
    return _opposed(differing)


def _different_times(a: tuple[Slot, ...], b: tuple[Slot, ...]) -> bool:
    dates_a = [s for s in a if s.kind in ("date", "as of")]
    dates_b = [s for s in b if s.kind in ("date", "as of")]
    return bool(dates_a and dates_b) and not any(x.overlaps(y) for x in dates_a for y in dates_b)


def _opposed(differing: list[tuple[Slot, Slot]]) -> tuple[Relation, str] | None:
    if len(differing) > 1 and any(x.kind == "date" for x, _ in differing):
        return None  # values at two different times: a change, which the other rules read
    x, y = differing[0]
    what = "dates" if x.kind == "date" else "values"
    return "contradicts", f"the same statement with different {what}: '{x.text}' vs '{y.text}'"


def _name_words(concept: str) -> Named:
    """The concept's name words that can pick it out ("National Register of Historic Places":
    not "of"), and whether it is a proper name."""
    words = frozenset(w for w in concept.lower().split() if w not in _stop_words())
    return Named(words, any(ch.isupper() for ch in concept))


@functools.cache
def _stop_words() -> frozenset[str]:
    # the pipeline's own list, imported on first use: importing spaCy takes seconds, and this
    # module is imported wherever conflicts are (the Dagster definitions among them)
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


def read_all(texts: list[tuple[str, Named]], nlp: Any) -> dict[tuple[str, Named], Statement | None]:
    """Each (claim text, concept name words) read, the texts parsed together (the pipeline
    is several times faster on a batch than one text at a time)."""
    unique = list(dict.fromkeys(texts))
    docs = nlp.pipe([text for text, _ in unique], batch_size=256)
    return {(text, names): statement_of(doc, names) for (text, names), doc in zip(unique, docs)}


def statement_of(doc: Any, names: Named) -> Statement | None:
    """A parsed claim's frame, values and keyed values; None when it has too many values to
    be one statement. ``names``: the concept's."""
    found = value_slots(doc, names.words)
    if len(found) > MAX_SLOTS:
        return None
    used = set().union(*(f.taken for f in found)) if found else set()
    negations = {t.i for t in doc if _negates(t)}
    frame = tuple(
        t.lemma_.lower()
        for t in doc
        if t.i not in used | negations
        and not (t.is_punct or t.is_space or t.pos_ == "DET" or t.is_stop)
        and t.lower_ not in APPROXIMATE_WORDS
    )
    keyed = tuple(k for f in found if (k := _keyed(doc, f, names, used)) is not None)
    roots = [t for t in doc if t.dep_ == "ROOT"]
    about = named = False
    if len(roots) == 1:  # one sentence: its main verb's subject
        opens = _opens_with(doc, roots[0], names)
        about, named = (said or opens for said in _about(roots[0], names))
    return Statement(frame, tuple(f.slot for f in found), len(negations) % 2 == 1, keyed, about, named)


def _about(verb: Any, names: Named) -> tuple[bool, bool]:
    """Whether the verb's subject is the concept, and whether it names it. The subject is the
    concept (or a part of it) when it names the concept, or when the clause names nothing of
    the concept anywhere, so the claim hangs on the concept by
    its context ("It was first released in 2013", "The open-source edition limits each
    algorithm to four cores" in a document about it). A claim also hangs on every concept it
    merely mentions: "It was added to the National Register of Historic Places in 1979" is
    about some building, not the register, and two such claims give two buildings' dates.
    A kind ("population", "school") has many instances: "Its population was 1,089" or "It
    has 12 classrooms" speak of one its document's context picks, so only a subject that can
    be generic ("A chessboard has 64 squares", "The adult human skeleton has 206 bones")
    states something of the kind itself."""
    subject = _subject(verb)
    if subject is None:
        return False, False
    named = _mentions(subject, names)
    if not names.proper and not _generic(subject):
        return False, named
    if named:
        return True, True
    inside = {t.i for t in subject.subtree}
    return not any(t.lower_ in names.words for t in _clause(verb) if t.i not in inside), False


def _mentions(subject: Any, names: Named) -> bool:
    return any(t.lower_ in names.words for t in subject.subtree)


def _generic(subject: Any) -> bool:
    """A subject that can speak of a kind: no pronoun or proper name (an instance), no
    "this" or possessive before it ("The adult human skeleton has 206 bones" is said of the
    kind, "its population" of one instance)."""
    if subject.pos_ in ("PRON", "PROPN"):
        return False
    return not any(c.dep_ == "poss" or c.lower_ in _DEMONSTRATIVES for c in subject.children)


def _opens_with(doc: Any, root: Any, names: Named) -> bool:
    """A sentence the parser read as one long noun phrase ("Tovik Works exports steel to
    Norway" with "exports" taken for a noun) is about what it opens with."""
    if root.pos_ in ("VERB", "AUX"):
        return False
    first = next((t for t in doc if not (t.is_punct or t.pos_ == "DET")), None)
    return first is not None and first.lower_ in names.words


def _clause(verb: Any) -> list[Any]:
    """The verb's own clause: its subtree without the clauses hung on it (a relative clause,
    an apposition, a clause joined by "and")."""
    out, todo = [verb], [verb]
    while todo:
        for child in todo.pop().children:
            if child.dep_ not in ("relcl", "acl", "appos", "advcl", "conj", "parataxis", "ccomp"):
                out.append(child)
                todo.append(child)
    return out


def _negates(tok: Any) -> bool:
    if tok.lower_ in NEGATIONS or tok.dep_ == "neg":
        following = tok.doc[tok.i + 1] if tok.i + 1 < len(tok.doc) else None
        return not (following is not None and following.lower_ == "only")  # "not only A but B"
    return tok.lemma_.lower() in DENYING_VERBS and any(c.dep_ == "xcomp" for c in tok.children)


def _keyed(doc: Any, found: Found, names: Named, values: set[int]) -> Keyed | None:
    """Climb from the value to the verb it belongs to: through the noun it counts and the
    preposition that joins it. None when no verb with a subject governs it."""
    tok, counted, joined = doc[found.root], "", ""
    if tok.dep_ in ("nummod", "quantmod") and tok.head.pos_ in ("NOUN", "PROPN"):
        counted, tok = tok.head.lemma_.lower(), tok.head
    for _ in range(3):  # "listens by default on TCP port 7687": through the nouns the phrases hang from
        if tok.dep_ == "pobj" and tok.head.dep_ in ("prep", "agent"):
            joined, tok = joined or tok.head.lemma_.lower(), tok.head.head
        elif tok.dep_ in ("dobj", "attr", "npadvmod", "oprd", "acomp"):
            joined, tok = joined or tok.dep_, tok.head
        else:
            break
        if tok.pos_ in ("VERB", "AUX"):
            break
    if not joined or tok.pos_ not in ("VERB", "AUX"):
        return None
    subject = _subject(tok)
    if subject is None:
        return None
    words = frozenset(
        t.lemma_.lower()
        for t in _naming(subject)
        if t.i not in values and t.lower_ not in names.words and t.lower_ not in _PRONOUNS and not t.is_punct
    )
    denied = any(_negates(c) for c in tok.children) or (tok.dep_ == "xcomp" and _negates(tok.head))
    key = (tok.lemma_.lower(), joined, counted)
    return Keyed(key, words, denied, found.slot, *_about(tok, names))


def _subject(verb: Any) -> Any:
    """The verb's subject; a verb joined to another ("was introduced ... and listens") or
    describing a noun ("the damping factor, usually set to 0.85") shares that one's."""
    for _ in range(3):
        for child in verb.children:
            if child.dep_ in _SUBJECTS:
                return child
        if verb.dep_ in ("acl", "relcl"):
            return verb.head
        if verb.dep_ not in ("conj", "xcomp"):
            return None
        verb = verb.head
    return None


def _naming(noun: Any) -> list[Any]:
    """A noun with the words that say which one it is ("the open-source edition")."""
    out, todo = [noun], [noun]
    while todo:
        for child in todo.pop().children:
            if child.dep_ in _NAMING:
                out.append(child)
                todo.append(child)
    return out
