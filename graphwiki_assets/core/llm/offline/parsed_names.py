"""Concept names read from a parsed text: the entities the recogniser finds and the noun
phrases that name things, each cut to the words that name it.

The parse decides what a name is, never a word list: a name is a run of nouns and proper
nouns (with the modifiers a compound or a proper name carries), never a clause (a verb
inside), a pronoun-led phrase, a bare number or a run of function words. What the string
itself rules out (identifiers, paths, measurements) is ``not_entities.is_junk``, shared
with every backend.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from graphwiki_assets.core.llm.not_entities import is_junk
from graphwiki_assets.core.llm.offline.aliases import stated_aliases
from graphwiki_assets.core.llm.offline.candidates import capitalised_runs, has_name_mark
from graphwiki_assets.core.llm.offline.names import acronym_letters
from graphwiki_assets.core.llm.offline.surface import is_date_or_number
from graphwiki_assets.core.normal_forms import norm_name, singular
from graphwiki_assets.core.text.sentences import clip

MAX_DESCRIPTION = 240  # characters of a sentence kept as a description or a definition

# The recogniser's labels that name an entity; dates, times, money, quantities and
# ordinals are values a claim states, not things a page is about.
NAME_LABELS = frozenset(
    {"PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE"}
)
# Parts of speech a name never starts or ends with.
_EDGE_POS = frozenset({"DET", "PRON", "PUNCT", "CCONJ", "ADP", "PART", "SCONJ", "SYM", "AUX", "INTJ", "SPACE"})
_CLAUSE_POS = frozenset({"VERB", "AUX"})
_MAX_WORDS = 6
_FINITE_TAGS = frozenset({"VBZ", "VBP", "VBD", "MD"})  # what makes a clause a sentence


@dataclass
class Candidate:
    """One name of the text with what the parse says about it."""

    name: str
    key: str
    first: int  # index of the sentence it first occurs in
    proper: bool = False  # an entity or a proper noun: a name, not a common term
    entity: bool = False  # the recogniser named it at least once, or its form marks a name ("Neo4j")
    written_as_name: bool = False  # capitals a sentence's start does not explain ("Alert Manager", "MVCC")
    listed: bool = False  # a list entry that is only this name ("- Bram Oster")
    labels: Counter[str] = field(default_factory=Counter)  # the recogniser's labels over its mentions
    heads: Counter[str] = field(default_factory=Counter)  # lemma of the head noun over its mentions
    name_heads: Counter[str] = field(default_factory=Counter)  # a proper name's own head word ("guide")
    sentences: set[int] = field(default_factory=set)
    mentions: int = 0
    subject_of: int = 0  # sentences it is the grammatical subject of
    stated_type: str | None = None  # "X is a Y": Y's head noun
    description: str = ""
    definition: str = ""  # the sentence "X is a Y ..." that defines it
    is_title: bool = False
    in_heading: bool = False
    aliases: list[str] = field(default_factory=list)
    short_forms: list[str] = field(default_factory=list)

    def define(self, sentence: str, n: int) -> None:
        """The sentence ``n`` says what it is: its description and definition, unless an
        earlier one did."""
        said = clip(sentence.strip(), MAX_DESCRIPTION)
        self.description = self.description or said
        self.definition = self.definition or said
        self.sentences.add(n)

    def add_mention(
        self, sentence: int, head: str, label: str | None, proper: bool, subject: bool, entity: bool
    ) -> None:
        self.first = min(self.first, sentence)
        self.sentences.add(sentence)
        self.mentions += 1
        if head:
            self.heads[head] += 1
        if label:
            self.labels[label] += 1
        self.proper |= proper
        self.entity |= entity
        self.subject_of += subject


def trim(tokens: list[Any], common: bool) -> list[Any]:
    """The words of a phrase that name its thing: function words off both edges; in a common
    noun phrase only the head and the compound nouns before it ("a single increasing counter"
    -> "counter", "the client applications" -> "client applications")."""
    while tokens and (tokens[0].pos_ in _EDGE_POS or tokens[0].dep_ == "poss"):
        tokens = tokens[1:]
    while tokens and (tokens[-1].pos_ in _EDGE_POS or tokens[-1].dep_ == "case"):
        tokens = tokens[:-1]
    if common and tokens:
        head = tokens[-1]
        start = len(tokens) - 1
        while start > 0 and _joins_name(tokens[start - 1], head):
            start -= 1
        tokens = tokens[start:]
    return tokens


def _joins_name(token: Any, head: Any) -> bool:
    if token.dep_ in ("compound", "flat") or token.pos_ == "PROPN":
        return True
    # "Native" in "Cloud Native Foundation": a capitalised modifier inside a name
    return token.pos_ == "ADJ" and token.is_title and not token.is_sent_start and head.pos_ == "PROPN"


# A title of a work or an event may be a clause ("Gone with the Wind"); any other name with a
# verb in it is a fragment of a sentence or an instruction ("Click Save").
_TITLE_LABELS = frozenset({"WORK_OF_ART", "EVENT", "LAW"})


def name_of(tokens: list[Any], label: str | None = None) -> str | None:
    """The name the tokens spell, or None when they are no name. Of two phrases a spaced dash
    separates, the name is the one nearest what follows ("Flux Helm Controller - Flux is a
    collection": Flux)."""
    dashes = [n for n, t in enumerate(tokens) if _spaced_dash(t)]
    tokens = tokens[dashes[-1] + 1 :] if dashes else tokens
    if not tokens or len(tokens) > _MAX_WORDS:
        return None
    if label not in _TITLE_LABELS and any(t.pos_ in _CLAUSE_POS for t in tokens):
        return None
    if tokens[0].pos_ == "PRON" or all(t.is_stop or t.is_punct for t in tokens):
        return None
    if not any(t.pos_ in ("NOUN", "PROPN", "X") or t.is_title for t in tokens):
        return None
    text = "".join(t.text_with_ws for t in tokens).strip()
    text = text.strip("\"'`“”‘’()[]{}<>,;:.!?*_-–— ")
    if not name_of_text(text):
        return None
    if text.lower().endswith("'s"):
        text = text[:-2]
    return text or None


def written_lowercase(c: Candidate, text: str) -> bool:
    """A capitalised name the same text also writes in lowercase as words of prose ("Size" in a
    table header beside "the size"): its capitals are layout, not a name. A name with a mark
    of its own ("PageRank", "Neo4j") or a stated alias is a name all the same."""
    if c.is_title or c.aliases or c.name == c.name.lower() or any(has_name_mark(w) for w in c.name.split()):
        return False
    lowered = c.name.lower()
    start = text.find(lowered)
    while start != -1:
        end = start + len(lowered)
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before in "/._-\"'`") and not (after.isalnum() or after in "/_-\"'`"):
            return True
        start = text.find(lowered, start + 1)
    return False


@dataclass
class Names:
    """Every candidate name of one text, by normalised key."""

    by_key: dict[str, Candidate] = field(default_factory=dict)
    alias_to: dict[str, str] = field(default_factory=dict)
    spans: list[tuple[Candidate, Any, Any]] = field(default_factory=list)  # (candidate, first token, last token)
    words_in: dict[int, int] = field(default_factory=dict)  # words (no punctuation) per sentence

    def find(self, name: str) -> Candidate | None:
        key = norm_name(name)
        return self.by_key.get(self.alias_to.get(key, key))

    def add(self, name: str, sentence: int) -> Candidate | None:
        key = norm_name(name)
        if not key:
            return None
        found = self.find(name)
        if found is None:
            found = self.by_key[key] = Candidate(name=name, key=key, first=sentence)
        return found

    def alias(self, owner: Candidate, alias: str) -> None:
        key = norm_name(alias)
        if not key or key == owner.key or key in self.alias_to:
            return
        other = self.by_key.pop(key, None)
        if other is not None and other is not owner:
            owner.labels.update(other.labels)
            owner.heads.update(other.heads)
            owner.name_heads.update(other.name_heads)
            owner.sentences |= other.sentences
            owner.mentions += other.mentions
            owner.subject_of += other.subject_of
            owner.proper |= other.proper
            owner.entity |= other.entity
            for name in other.aliases:  # its other names are the owner's now
                self.alias_to[norm_name(name)] = owner.key
                owner.aliases.append(name)
            owner.description = owner.description or other.description
            owner.definition = owner.definition or other.definition
            owner.stated_type = owner.stated_type or other.stated_type
            owner.first = min(owner.first, other.first)
        self.alias_to[key] = owner.key
        owner.aliases.append(alias)


def collect(
    doc: Any, sentence_of: dict[int, int], verb_starts: Collection[int] = (), skip: Collection[int] = ()
) -> Names:
    """Entities and noun phrases of a parsed ``doc``; ``sentence_of`` maps a token's index
    to its sentence's; ``verb_starts`` are the tokens that open a sentence as a verb (see
    ``verb_led``), never part of a name; the tokens in ``skip`` are read for no name."""
    names = Names()
    for t in doc:
        if not (t.is_punct or t.is_space) and t.i in sentence_of:
            names.words_in[sentence_of[t.i]] = names.words_in.get(sentence_of[t.i], 0) + 1
    taken: set[int] = set(skip)
    for quoted in _quoted_titles(doc):
        tokens = quoted[1:] if quoted[0].pos_ == "DET" and len(quoted) > 1 else quoted  # all but "The"
        if any(t.i in taken for t in tokens):
            continue
        if (name := name_of(tokens, "WORK_OF_ART")) is not None:
            _mention(names, name, tokens, None, True, sentence_of, entity=True)
            taken.update(t.i for t in tokens)
    for ent in doc.ents:
        if ent.label_ not in NAME_LABELS or any(t.i in taken for t in ent):
            continue
        if ent.label_ == "NORP" and ent.root.pos_ == "ADJ":
            continue  # "an American actor": a demonym describes, it names no thing
        for part in _coordinated(list(ent), ent.label_):
            tokens = _without_release(trim(part, common=False))
            # an instruction's verb taken into the name ("Join Helm"): the label was for a
            # span that is no name, so it says nothing about the rest
            led = bool(tokens) and tokens[0].i in verb_starts
            tokens = tokens[1:] if led else tokens
            if (name := name_of(tokens, ent.label_)) is None:
                continue
            # a name that modifies a noun ("the Bolt port") is not what its phrase names, and
            # the recogniser's label on it is a guess about the phrase
            modifier = tokens[-1].dep_ in ("compound", "amod") and tokens[-1].head.i > tokens[-1].i
            if modifier and ent.label_ == "PERSON" and len(tokens) > 1:
                # a person's full name before a noun names what is named after them ("the Peter
                # Parker principle"): the noun phrase is the name, read as a phrase below. (One
                # word labelled a person is as often a product: "the Helm chart".)
                continue
            # the recogniser found it, whatever its label is worth
            label = None if modifier or led else ent.label_
            _mention(names, name, tokens, label, True, sentence_of, entity=True)
            taken.update(t.i for t in tokens)
    for chunk in doc.noun_chunks:
        proper = any(t.pos_ == "PROPN" for t in chunk)
        for part in _coordinated(list(chunk), None):
            tokens = _without_release(trim(part, common=not proper))
            tokens = tokens[1:] if tokens and tokens[0].i in verb_starts else tokens
            if not tokens or any(t.i in taken for t in tokens) or (name := name_of(tokens)) is None:
                continue
            _mention(names, name, tokens, None, proper, sentence_of)
    for token in doc:
        # a capital inside a word or a digit after its letters ("PageRank", "Neo4j"): a name
        # by its form, wherever the parse put it
        if (
            token.i not in taken
            and token.i not in verb_starts
            and token.pos_ in ("PROPN", "NOUN", "X")
            and has_name_mark(token.text)
        ):
            if (name := name_of([token])) is not None:
                _mention(names, name, [token], None, True, sentence_of, entity=True)
    _parenthesised_aliases(names)
    _stated_aliases(doc, names, sentence_of)
    _short_forms(names)
    return names


def is_field(sentence: Any) -> bool:
    """A line of a record, "LOCATION: Building C | Level 3", "DATE: Thursday October 27": a
    key in capitals, a colon and a value with no finite verb and no instruction. It states no
    claim and names nothing; "NOTE: Helm 3 removes Tiller" and "NOTE: see the FAQ" are sentences."""
    words = [t for t in sentence if not t.is_space]
    colon = next((n for n, t in enumerate(words) if t.text == ":"), None)
    if colon is None or not 0 < colon <= 3 or colon + 1 >= len(words):
        return False
    key = words[:colon]
    if not all(t.is_alpha and t.is_upper and len(t) > 1 for t in key):
        return False
    value = words[colon + 1 :]
    return value[0].tag_ != "VB" and not any(t.tag_ in _FINITE_TAGS for t in value)


def _stated_aliases(doc: Any, names: Names, sentence_of: dict[int, int]) -> None:
    """Other names a sentence states outright ("X, also known as Y", "Y stands for X",
    "X (Y)" with Y X's acronym): the text says they are one thing."""
    for sent in doc.sents:
        text = sent.text
        n = sentence_of.get(sent.start, 0)
        for owner_name, aliases, _ in stated_aliases(text, capitalised_runs(text, [])):
            owner = names.find(owner_name) if owner_name else None
            if owner is None and owner_name and name_of_text(owner_name):
                owner = names.add(owner_name, n)
                if owner is not None:
                    owner.sentences.add(n)
            for alias in aliases:
                if owner is not None and name_of_text(alias):
                    names.alias(owner, alias)


def name_of_text(text: str) -> bool:
    """A stated name passes the string checks every name does."""
    return len(text) >= 2 and any(ch.isalpha() for ch in text) and not is_date_or_number(text) and not is_junk(text)


def _parenthesised_aliases(names: Names) -> None:
    """ "Fedor Ozep (Fyodor Otsep; 1895-1949)", "Cypher Query Language (CQL)": a name the parse
    attaches in brackets to the name just before it is another name of the same thing."""
    heads = {head.i: c for c, _, head in names.spans}
    for c, first, head in list(names.spans):
        if first.i == 0 or first.doc[first.i - 1].text != "(" or not c.proper:
            continue
        if head.i + 1 < len(head.doc) and head.doc[head.i + 1].text == ":":
            continue  # "(Welsh: Gemau Tarrow)": the language of the name that follows
        owner = heads.get(head.head.i) if head.dep_ in ("appos", "npadvmod", "conj") else None
        owner = owner or heads.get(first.i - 2)  # the name ends right before the bracket
        if owner is not None and owner is not c and owner.proper and names.find(c.name) is c:
            names.alias(owner, c.name)


def _short_forms(names: Names) -> None:
    """A one-word name that ends exactly one longer person's name is that person ("Hackett"
    after "David Hackett"): a surname, not a second concept. One that ends several stays."""
    people = [c for c in names.by_key.values() if " " in c.name and c.labels.get("PERSON")]
    for c in list(names.by_key.values()):
        if " " in c.name or c.is_title or not c.proper:
            continue
        enders = [p for p in people if p.key.split()[-1] == c.key]
        if len(enders) == 1:
            names.alias(enders[0], c.name)


def _quoted_titles(doc: Any) -> list[list[Any]]:
    """A capitalised phrase in quotes is the title of something ("Mad About You"), whatever
    words it holds: the quotes mark where the name begins and ends."""
    found: list[list[Any]] = []
    opened: int | None = None
    for t in doc:
        if t.text != '"':
            if t.is_sent_start:
                opened = None
            continue
        if opened is None:
            opened = t.i
            continue
        inner = list(doc[opened + 1 : t.i])
        words = [w for w in inner if w.is_alpha]
        if (
            0 < len(inner) <= _MAX_WORDS
            and words
            and words[0].is_title
            and sum(w.is_title for w in words) * 2 > len(words)
        ):
            found.append(inner)
        opened = None
    return found


def _without_release(tokens: list[Any]) -> list[Any]:
    """ "Golem 1.12", "Golem v3.8.0": a point release of Golem, one concept with it (its claims
    keep the number). A whole number stays part of the name, with or without its "v": "Helm 2"
    and "Helm v2" are one major version (one key, see ``normal_forms``), as "Route 66" is a road."""
    if len(tokens) > 1:
        number = tokens[-1].text
        number = number[1:] if number[:1] in "vV" else number
        if "." in number and number.replace(".", "").isdigit():
            return tokens[:-1]
    return tokens


def _coordinated(tokens: list[Any], label: str | None) -> list[list[Any]]:
    """ "Cassels Lake and Rabbit Lake" names two things, and so do two names either side of a
    spaced dash; a title keeps its "and" ("Pride and Prejudice"), and so does a name whose "of"
    phrase it joins. A noun phrase's commas separate
    a list's items; an entity's belong to its name ("Neo4j, Inc.")."""
    if label in _TITLE_LABELS:
        return [tokens]
    parts: list[list[Any]] = [[]]
    for t in tokens:
        # after "of" the conjunction joins the complement ("Medal of Technology and Innovation")
        inside = any(p.pos_ == "ADP" for p in parts[-1])
        if (t.pos_ == "CCONJ" and not inside) or (label is None and t.is_punct and t.text == ",") or _spaced_dash(t):
            parts.append([])
        else:
            parts[-1].append(t)
    return [p for p in parts if p]


def _spaced_dash(t: Any) -> bool:
    """A dash with a space on each side separates two things ("Porter Mixins - Sarah
    Christoff"); a hyphen inside a word joins it."""
    return t.text in ("-", "–", "—") and bool(t.whitespace_) and t.i > 0 and bool(t.doc[t.i - 1].whitespace_)


def _mention(
    names: Names,
    name: str,
    tokens: list[Any],
    label: str | None,
    proper: bool,
    sentence_of: dict[int, int],
    entity: bool = False,
) -> None:
    """One mention of ``name``; ``entity``: the recogniser or the name's form says it is a name."""
    head = tokens[-1]
    sentence = sentence_of[head.i]
    found = names.add(name, sentence)
    if found is None:
        return
    names.spans.append((found, tokens[0], head))
    # a common noun written in capitals at a sentence's start is still common
    written_proper = proper and any(t.pos_ == "PROPN" or (t.is_title and not t.is_sent_start) for t in tokens)
    subject = head.dep_ in ("nsubj", "nsubjpass")
    words = [t for t in tokens if not t.is_punct]
    found.listed |= proper and len(words) == names.words_in.get(sentence, -1) and len(words) <= 4
    found.written_as_name |= proper and (
        acronym_letters(name) is not None
        or (len(words) >= 2 and all(t.is_title or t.is_upper for t in words) and not tokens[0].is_sent_start)
    )
    # the head noun says what kind of thing a phrase names ("client applications", "Prometheus
    # server"); a one-word name is only itself, and a proper name's last word is part of the
    # name ("Alert Manager" is no manager)
    # (a version or a code is no kind: "Helm v4" is no "v4")
    noun = head.lemma_.lower() if len(tokens) > 1 and head.pos_ == "NOUN" and head.is_lower and head.is_alpha else ""
    if len(words) > 1 and not noun and _singular_word(root := _root(tokens)):
        # the word the name's other words hang from ("Guide" in "Chart Template Guide",
        # "Foundation" in "Linux Foundation", "Trail" in "Trail of Bits"): the typer asks
        # whether it is a word for a kind of thing. A plural one names a firm or a whole
        # ("Cisco Systems", "Star Wars"), not one thing of that kind.
        found.name_heads[root.text.lower()] += 1
    found.add_mention(sentence, noun, label, written_proper or label is not None, subject, entity or label is not None)


def _singular_word(token: Any) -> bool:
    word = token.text.lower()
    return token.is_alpha and token.tag_ in ("NN", "NNP") and singular(word) == word


def _root(tokens: list[Any]) -> Any:
    """The token of a span whose head lies outside it (the last one when the parse disagrees)."""
    inside = {t.i for t in tokens}
    return next((t for t in tokens if t.head.i not in inside or t.head.i == t.i), tokens[-1])


def inner_keys(name: str) -> set[str]:
    """The keys of every run of words inside a name, the name itself aside."""
    words = norm_name(name).split()
    return {" ".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, len(words) + 1)} - {" ".join(words)}
