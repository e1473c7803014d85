"""Offline extraction: concepts and claims from one document by rules.

Concepts: the title entity (a markdown heading only when it names one), capitalised
names, acronyms, quoted terms, stated aliases and the subjects of definitions, typed
from "X is a Y" heads, a role word before a name ("psychologist Carl Rogers"), a title
qualifier ("Brand (play)") or the name's own head ("Leopold Museum"). Claims: every sentence that mentions a concept, about the
concepts it mentions; a sentence led by a pronoun or "The <noun>" is also about the
document's subject.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from graphwiki_assets.core.llm.calls import ExtractedConcept, ExtractRequest, ExtractResponse
from graphwiki_assets.core.llm.not_entities import is_junk
from graphwiki_assets.core.llm.offline import candidates as cand
from graphwiki_assets.core.llm.offline.aliases import stated_aliases
from graphwiki_assets.core.llm.offline.claims import Mentions, build_claims, first_mention
from graphwiki_assets.core.llm.offline.context_types import context_type, section_type
from graphwiki_assets.core.llm.offline.definitions import PRONOUNS, definition
from graphwiki_assets.core.llm.offline.names import CATEGORY_NOUNS, type_from_name
from graphwiki_assets.core.llm.offline.surface import is_date_or_number, normalize_source, strip_article
from graphwiki_assets.core.llm.offline.titles import document_title, heading_names
from graphwiki_assets.core.normal_forms import norm_name
from graphwiki_assets.core.text.sentences import clip, split_sentences
from graphwiki_assets.core.text.type_names import PERSON_ROLES
from graphwiki_assets.core.text.words import STOPWORDS

# A type from the section is the weakest evidence, one the sentence states the strongest.
_TYPE_RANK_SECTION, _TYPE_RANK_NAME, _TYPE_RANK_ROLE, _TYPE_RANK_STATED = 1, 2, 3, 4
_AUX_AFTER = re.compile(
    r"\s+(?:is|was|are|were|has|had|have|will|would|can|could|may|might|does|did|uses|provides|supports)\b"
)
_MAX_DESCRIPTION = 240
# A sentence this short under a heading is an entry of what the heading lists ("- Ada Quill
# (@adaq), Harborline"); a longer one is prose about the section's topic.
_LIST_ENTRY_WORDS = 8
_RELEASE = re.compile(r"^(.*[A-Za-z].*?)\s+v?\d+(?:\.\d+)+[a-z0-9.\-]*$|^(.*[A-Za-z].*?)\s+v\d+$")


@dataclass
class _Concept:
    name: str
    key: str
    first: int
    type: str | None = None
    type_rank: int = 0
    description: str = ""
    aliases: list[str] = field(default_factory=list)
    short_forms: list[str] = field(default_factory=list)  # "Rogers" for "Carl Rogers"; not aliases
    is_title: bool = False
    is_subject: bool = False
    confirmed: bool = False  # seen somewhere its capital is not just sentence position


class _Registry:
    def __init__(self) -> None:
        self.by_key: dict[str, _Concept] = {}
        self.alias_to: dict[str, str] = {}

    def find(self, name: str) -> _Concept | None:
        key = norm_name(name)
        return self.by_key.get(self.alias_to.get(key, key))

    def add(self, name: str, where: int, confirmed: bool = True) -> _Concept | None:
        name = _clean_name(name)
        if not name:
            return None
        found = self.find(name)
        if found is None:
            found = _Concept(name=name, key=norm_name(name), first=where)
            self.by_key[found.key] = found
        found.confirmed |= confirmed
        return found

    def alias(self, owner: _Concept, alias: str, stated: bool = True) -> None:
        alias = _clean_name(alias)
        key = norm_name(alias) if alias else ""
        if not key or key == owner.key or key in self.alias_to:
            return
        other = self.by_key.pop(key, None)
        if other is not None and other is not owner:
            owner.first = min(owner.first, other.first)
            owner.confirmed |= other.confirmed
            self.set_type(owner, other.type, other.type_rank)
            owner.description = owner.description or other.description
        self.alias_to[key] = owner.key
        (owner.aliases if stated else owner.short_forms).append(alias)

    def merge_short_forms(self) -> None:
        """A lone word that ends exactly one longer name in the document is a short
        reference to it: a surname ("Rogers"), a category word ("the Empire"), or part
        of the title's name ("Xiao" in an article on Xiao Qiang). One that ends several
        names ("Olympics") is a generic head, not a concept."""
        multi = [c for c in self.by_key.values() if " " in c.name]
        title = next((c for c in self.by_key.values() if c.is_title), None)
        for c in list(self.by_key.values()):
            if title is not None and c is not title and _fuller_name(title, c):
                self.alias(title, c.name)  # "Waylon Malloy Payne" in the article "Waylon Payne"
                continue
            if " " in c.name or c.is_title or c.aliases:
                continue
            enders = [m for m in multi if m.key.split()[-1] == c.key]
            if len(enders) > 1:
                del self.by_key[c.key]
                continue
            owners = [m for m in enders if c.key in CATEGORY_NOUNS or _is_person(m)]
            owners = owners or [m for m in multi if _plain_title(m) and c.key in (m.key.split()[0], m.key.split()[-1])]
            if len(owners) == 1:
                self.alias(owners[0], c.name, stated=False)

    def set_type(self, c: _Concept, type_name: str | None, rank: int) -> None:
        if type_name and rank > c.type_rank:
            c.type, c.type_rank = type_name, rank


def _is_person(c: _Concept) -> bool:
    return c.type == "Person" or (c.type or "").lower() in PERSON_ROLES or type_from_name(c.name) == "Person"


def _fuller_name(short: _Concept, full: _Concept) -> bool:
    """The same name with middle names added: first and last words agree."""
    a, b = short.key.split(), full.key.split()
    return len(a) >= 2 and len(b) > len(a) and a[0] == b[0] and a[-1] == b[-1] and "of" not in b


def _plain_title(c: _Concept) -> bool:
    """A title that is a bare name (no category head, no "of"): its parts refer to it."""
    words = c.key.split()
    return c.is_title and len(words) <= 3 and "of" not in words and type_from_name(c.name) is None


def _clean_name(name: str) -> str:
    name = re.sub(r"\s+", " ", name).strip().strip("\"',;:!?()[]").strip()
    if not re.search(r"(?:\b[A-Za-z]\.){2,}$", name):
        name = name.rstrip(".")  # keep the final dot of "U.S."
    name = strip_article(name)
    if len(name) < 2 or len(name) > 80 or len(name.split()) > 8 or is_date_or_number(name):
        return ""
    if all(w.lower() in STOPWORDS for w in re.findall(r"\w+", name)) or is_junk(name):
        return ""  # junk is dropped here too, so it takes no place among the chosen concepts
    return name


def extract(req: ExtractRequest, max_concepts: int | None = None) -> ExtractResponse:
    text = normalize_source(_with_headings(req))
    # the section's headings are in the text now, so each sentence's heading is read from it
    sentences, sections = _sentences_with_sections(text, "")
    reg = _Registry()
    title_name, title_type = document_title(req.title, text)
    title = reg.add(title_name, -1) if title_name else None
    if title is not None:
        title.is_title = True
        reg.set_type(title, title_type, _TYPE_RANK_STATED)
    anchors = [a for a in req.links if _names_a_thing(a)]
    for i, sentence in enumerate(sentences):
        _scan(reg, sentence, i, title, sections[i])
        for anchor in anchors:
            if re.search(rf"(?<!\w){re.escape(anchor)}(?!\w)", sentence):
                reg.add(anchor, i)  # linked, so named even first in a sentence
    in_headings = heading_names(text)
    for c in reg.by_key.values():
        c.confirmed |= c.name in in_headings
    reg.merge_short_forms()
    counts = _count_mentions(reg, sentences)
    limit = max_concepts or (15 if len(text) <= 1500 else 15 + (len(text) - 1500) // 150)
    chosen = _select(reg, counts, limit, text)
    claims = build_claims(sentences, chosen, title if title in chosen else None)
    concepts = []
    for c in chosen:
        description = c.description or first_mention(sentences, c, _MAX_DESCRIPTION)
        if not description and c is title and sentences:
            description = clip(sentences[0], _MAX_DESCRIPTION)
        concepts.append(
            ExtractedConcept(name=c.name, type=c.type or "Concept", description=description, aliases=c.aliases)
        )
    return ExtractResponse(concepts=concepts, claims=claims)


def _with_headings(req: ExtractRequest) -> str:
    """The text under its section's headings, as the rules read a markdown document: the
    headings decide whether the document's title names an entity (``titles.py``)."""
    if not req.section:
        return req.text
    headings = "\n".join(f"{'#' * min(depth + 1, 6)} {name}" for depth, name in enumerate(req.section.split(" > ")))
    return f"{headings}\n\n{req.text}"


def _names_a_thing(anchor: str) -> bool:
    """A link text written as a name ("Kelpstore", "Raft Consensus", "iPhone" with a name
    mark), not a phrase ("this guide", "click here")."""
    words = [w for w in re.findall(r"[\w.\-]+", anchor) if w.lower() not in STOPWORDS]
    return 0 < len(words) <= 5 and all(w[:1].isupper() or cand.has_name_mark(w) for w in words)


def _sentences_with_sections(text: str, outer: str) -> tuple[list[str], list[str]]:
    """The text's sentences (headings left out) and the heading path each one sits under:
    the request's own section, then the last heading line of the text before it."""
    sentences: list[str] = []
    sections: list[str] = []
    heading = ""
    for s in split_sentences(text):
        if s.startswith("#"):
            heading = s.lstrip("#").strip()
            continue
        sentences.append(s)
        sections.append(" > ".join(p for p in (outer, heading) if p))
    return sentences, sections


def _scan(reg: _Registry, sentence: str, i: int, title: _Concept | None, section: str = "") -> None:
    known = _known_spans(title, sentence)
    runs = cand.capitalised_runs(sentence, known)
    taken: list[tuple[int, int]] = []  # alias lists: their names belong to the owner
    for owner_name, aliases, rng in stated_aliases(sentence, runs):
        owner = reg.add(owner_name, i) if owner_name else None
        for alias in aliases:
            if owner is not None:
                reg.alias(owner, alias)
            else:
                reg.add(alias, i)
        if owner is not None:
            taken.append(rng)
    for span in runs + cand.quoted_terms(sentence):
        if any(a <= span.start < b for a, b in taken):
            continue
        if (release := _RELEASE.match(span.text)) and (base := release.group(1) or release.group(2)):
            # "Kestrel 3.5", "Kestrel v2": a release of Kestrel, one concept with it (the
            # sentence keeps the number); a plain number stays part of a name ("Route 66")
            span = cand.Span(span.start, span.start + len(base), base, span.kind, span.at_start)
        confirmed = not span.at_start or span.kind != "name" or " " in span.text or cand.has_name_mark(span.text)
        if not confirmed and _AUX_AFTER.match(sentence[span.end :]):
            confirmed = True  # "Microsoft is ...": a sentence-initial name used as a subject
        c = reg.add(span.text, i, confirmed)
        if c is None:
            continue
        reg.set_type(c, type_from_name(c.name), _TYPE_RANK_NAME)
        reg.set_type(c, context_type(sentence, span.start, span.end, span.text), _TYPE_RANK_ROLE)
        if len(sentence.split()) <= _LIST_ENTRY_WORDS:  # an entry of a list, not prose about the section's topic
            reg.set_type(c, section_type(section, c.name), _TYPE_RANK_SECTION)
        before = re.findall(r"[A-Za-z\-]+", sentence[: span.start])
        if before and before[-1] in PERSON_ROLES:
            reg.set_type(c, before[-1].capitalize(), _TYPE_RANK_ROLE)
        if re.match(r"\s*\((?:born|b\.|\d{3,4}\s*[-–]\s*\d{3,4})", sentence[span.end :]):
            reg.set_type(c, "Person", _TYPE_RANK_ROLE)
    _definition(reg, sentence, i, title)


def _definition(reg: _Registry, sentence: str, i: int, title: _Concept | None) -> None:
    found = definition(sentence)
    if not found:
        return
    subject, type_name = found
    words = subject.split()
    refers_back = words[0].lower() in PRONOUNS or (len(words) == 2 and words[0].lower() == "the" and words[1].islower())
    named = strip_article(subject)
    if refers_back or (
        title is not None and re.match(rf"(?:the\s+)?{re.escape(title.name)}(?!\w)", sentence, re.IGNORECASE)
    ):
        target = title
    elif reg.find(subject) is not None or named[:1].isupper() and any(w[:1].isupper() for w in named.split()[1:]):
        target = reg.add(subject, i)
    elif not subject.lower().startswith(("the ", "this ", "that ", "its ", "their ")) and len(words) <= 4 and type_name:
        target = reg.add(subject, i)  # a lowercase term being defined: "A vector index is a ..."
    else:
        target = None
    if target is None:
        return
    target.is_subject = True
    target.confirmed = True
    reg.set_type(target, type_name, _TYPE_RANK_STATED)
    if not target.description:
        target.description = clip(sentence, _MAX_DESCRIPTION)


def _known_spans(title: _Concept | None, sentence: str) -> list[cand.Span]:
    """Where the title and its aliases occur, so a lowercase word inside them does not
    cut them into pieces."""
    spans: list[cand.Span] = []
    if title is None:
        return spans
    for surface in sorted([title.name, *title.aliases], key=len, reverse=True):
        for m in re.finditer(rf"(?<!\w){re.escape(surface)}(?!\w)", sentence, re.IGNORECASE):
            if not any(s.start <= m.start() < s.end for s in spans):
                spans.append(cand.Span(m.start(), m.end(), m.group(), "known"))
    return spans


def _count_mentions(reg: _Registry, sentences: list[str]) -> dict[str, int]:
    mentions = Mentions(list(reg.by_key.values()))
    counts: dict[str, int] = {}
    for s in sentences:
        for c in mentions(s):
            counts[c.key] = counts.get(c.key, 0) + 1
    return counts


def _written_lowercase(c: _Concept, text: str) -> bool:
    """A capitalised name the same text also writes in lowercase, as a word of prose ("Size"
    in a table header, "VALUE" in a column title, "Common Failure" in a bold lead-in beside
    "common failure"): its capitals are layout or emphasis, and it names no one thing. A name
    with a mark of its own ("PageRank", "Neo4j") or a stated alias is a name all the same."""
    if c.is_title or c.aliases or c.name == c.name.lower():
        return False
    words = c.name.split()
    if c.name.isupper() and (len(words) > 1 or len(c.name) >= 5):
        # "RAFT INDEX", "VERSION": a column title in capitals, when the text uses each word
        return all(_in_prose(w.lower(), text) for w in words)
    return not cand.has_name_mark(c.name) and _in_prose(c.name.lower(), text)


def _in_prose(lowered: str, text: str) -> bool:
    """``lowered`` occurs as words of prose: inside a path, a dotted name, an identifier or
    quotes (code) a lowercase spelling proves nothing."""
    low = re.escape(lowered)
    return re.search(rf"(?<![\w/.\-\"']){low}(?![\w/\-\"']|\.\w)", text) is not None


def _select(reg: _Registry, counts: dict[str, int], limit: int, text: str = "") -> list[_Concept]:
    pool = [c for c in reg.by_key.values() if c.is_title or c.confirmed or counts.get(c.key, 0) > 1]
    pool = [c for c in pool if not _written_lowercase(c, text)]

    def rank(c: _Concept) -> tuple[bool, float, int]:
        weight = counts.get(c.key, 0) + 2 * c.is_subject + (" " in c.name) + 0.5 * bool(c.type) + bool(c.aliases)
        return (not c.is_title, -weight, c.first)

    return sorted(pool, key=rank)[:limit]
