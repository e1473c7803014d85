"""Offline extraction with a trained English pipeline (spaCy): concepts, their types, their
definitions and the claims about them, read from the parse instead of from word lists.

The approach of GraphRAG's fast indexing method: names are the entities the recogniser finds
and the noun phrases that name things (``parsed_names``); a concept's type is the head noun a
definition gives it ("A counter is a cumulative metric" -> metric), else its own head word when
that names a kind ("Chart Template Guide" -> guide), else its entity label mapped onto the
schema config's types (``TypeHint.entity_labels``, marked a guess), else its own head noun
("values file" -> file), which the taxonomy maps; the fallback type only where nothing says
more (``parsed_types``). A claim is a statement (a sentence with a grammatical subject) that mentions a concept,
about the concept its subject names first (a concept, the agent of a passive, or a pronoun
or "the <noun>" that refers back to one); a lead-in that ends in a colon and an instruction
with no subject state nothing. A sentence "X is a Y" records X's definition.
"""

from __future__ import annotations

from typing import Any

from graphwiki_assets.core.llm.calls import ExtractedClaim, ExtractedConcept, ExtractRequest, ExtractResponse, TypeHint
from graphwiki_assets.core.llm.offline.claims import Mentions
from graphwiki_assets.core.llm.offline.context_types import section_type
from graphwiki_assets.core.llm.offline.definitions import FORM_WORDS
from graphwiki_assets.core.llm.offline.examples_of import state_kinds_by_example
from graphwiki_assets.core.llm.offline.parsed_names import (
    MAX_DESCRIPTION,
    Candidate,
    Names,
    collect,
    inner_keys,
    is_field,
    name_of,
    trim,
    written_lowercase,
)
from graphwiki_assets.core.llm.offline.parsed_types import Typer
from graphwiki_assets.core.llm.offline.surface import normalize_source, strip_article
from graphwiki_assets.core.llm.offline.term_items import defined_terms
from graphwiki_assets.core.llm.offline.titles import document_title
from graphwiki_assets.core.llm.offline.verb_led import first_word, third_person_openings, verb_led, verb_openings
from graphwiki_assets.core.normal_forms import norm_name
from graphwiki_assets.core.text.sentences import clip

_MAX_ABOUT = 8
_SUBJECTS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})
# Pronouns that refer back to what the text is about; first and second person name the
# writer and the reader, who are no concept.
_BACK_PRONOUNS = frozenset({"it", "they", "he", "she", "this", "these", "its", "their", "his", "her"})
_DEMONSTRATIVES = frozenset({"this", "these", "that", "those"})
_COPULAS = frozenset({"be"})
_CONTENT = frozenset({"NOUN", "PROPN", "NUM", "ADJ", "X"})


def extract_parsed(reqs: list[ExtractRequest], hints: list[TypeHint], nlp: Any) -> list[ExtractResponse]:
    """One response per request, in order; the texts go through the pipeline together."""
    bodies = [_without_headings(normalize_source(r.text)) for r in reqs]
    texts = [body for body, _ in bodies]
    headings = [
        r.section.split(" > ")[-1].strip() if r.section else (inner[0][1] if inner else "")
        for r, (_, inner) in zip(reqs, bodies)
    ]
    parsed = list(nlp.pipe(texts, batch_size=64))
    openings = verb_openings(nlp, parsed)
    third_person = third_person_openings(nlp, parsed)
    titles = [_document_title(r) for r in reqs]
    # Only a title taken from a heading or a file name may be a task ("Join …"): a record's own
    # title ("Finding Tarrow") and a title the text writes as it stands name their subject.
    tasks = verb_led(
        nlp,
        (
            name
            for (name, _), r, text in zip(titles, reqs, texts)
            if name and name not in text and name != r.title.strip()
        ),
    )
    # a heading that reads as a task names no subject for its section
    short = sorted(set(headings) - verb_led(nlp, headings) - {""})
    heading_docs = dict(zip(short, nlp.pipe(short)))
    typer = Typer(hints)
    return [
        _extract(req, text, doc, heading_docs.get(heading), typer, inner, title, title[0] in tasks, starts, described)
        for req, text, doc, heading, (_, inner), title, starts, described in zip(
            reqs, texts, parsed, headings, bodies, titles, openings, third_person
        )
    ]


def _without_headings(text: str) -> tuple[str, list[tuple[int, str]]]:
    """A text given as markdown (a caller's own, not the reader's prose) with its heading lines
    blanked out of the prose, and where each heading stood: a heading is no sentence, but it
    names what follows it."""
    lines, headings, at = [], [], 0
    for line in text.split("\n"):
        if line.lstrip().startswith("#"):
            headings.append((at, line.strip().lstrip("#").strip()))
            line = " " * len(line)
        lines.append(line)
        at += len(line) + 1
    return "\n".join(lines), headings


def _extract(
    req: ExtractRequest,
    text: str,
    doc: Any,
    heading: Any,
    typer: Typer,
    inner: list[tuple[int, str]],
    found_title: tuple[str | None, str | None],
    title_is_task: bool = False,
    verb_starts: frozenset[int] | set[int] = frozenset(),
    third_person: frozenset[int] | set[int] = frozenset(),
) -> ExtractResponse:
    fields: list[Any] = []
    sentences: list[Any] = []
    for s in doc.sents:
        if is_field(s):
            fields.append(s)
        elif s.text.strip():
            sentences.append(s)
    sentence_of = {t.i: n for n, s in enumerate(sentences) for t in s}
    names = collect(doc, sentence_of, verb_starts, {t.i for s in fields for t in s})
    _type_list_entries(names, sentences, req.section, inner)
    title = None if title_is_task else _title(found_title, names)
    # sentences that open with a verb in the third person: a reference entry's description
    described = {n for n, s in enumerate(sentences) if (w := first_word(s)) is not None and w.i in third_person}
    headed = _section_subject(heading, names, entry=0 in described)
    section = headed or title
    if headed is None:
        described = set()  # only what a heading names is a reference entry's subject
    for n, sentence in enumerate(sentences):
        if n in described:
            _entry_description(sentence, n, headed)
        else:
            _definition(sentence, n, names, section)
    state_kinds_by_example(sentences, names)
    items = defined_terms(req.terms, sentences, names)
    for c in [c for c in names.by_key.values() if written_lowercase(c, text)]:
        # a heading's or a column's capitals, whatever the recogniser guessed: a common term
        c.proper = c.entity = False
        c.name = c.name.lower()
    chosen = _select(names, len(text), section, doc.vocab)
    claims = _claims(sentences, chosen, section, described, items)
    concepts = [
        ExtractedConcept(
            name=c.name,
            type=type_,
            type_guessed=guessed,
            # only a definition describes; a first mention ("This is part 3 of our series on
            # charts") would lead every later summary of the concept
            description=c.description,
            definition=c.definition,
            aliases=c.aliases,
        )
        for c, (type_, guessed) in zip(chosen, map(typer.typed, chosen))
    ]
    return ExtractResponse(concepts=concepts, claims=claims)


def _type_list_entries(names: Names, sentences: list[Any], section: str, inner: list[tuple[int, str]]) -> None:
    """A list under a heading that names a kind in the plural ("Maintainers", "Supported
    tools") lists things of that kind: an entry that is only a name gets the heading's kind,
    and the heading as what the source says of it."""
    for c in names.by_key.values():
        if not c.listed or c.stated_type:
            continue
        start = sentences[c.first].start_char if 0 <= c.first < len(sentences) else 0
        above = [h for at, h in inner if at <= start]
        path = " > ".join(p for p in (section, above[-1] if above else "") if p)
        c.stated_type = section_type(path, c.name)
        if path and not c.description:
            # what the source says of a bare entry is where it lists it
            c.description = f"{c.name} is listed under {path}."


def _document_title(req: ExtractRequest) -> tuple[str | None, str | None]:
    """(name, type) of the document's own entity by the title rules, its section path read as headings."""
    body = "\n".join(f"{'#' * (d + 1)} {h}" for d, h in enumerate(req.section.split(" > ")) if h) if req.section else ""
    return document_title(req.title, f"{body}\n\n{req.text}" if body else req.text)


def _title(found_title: tuple[str | None, str | None], names: Names) -> Candidate | None:
    """The document's own entity, as the title rules read it (a file name the text uses, a
    heading that is a name), made a concept even when the text never parses it as one. (A
    heading that reads as a task, "Install the chart", "Migrating clusters", names none unless
    the text writes it as a name: see ``verb_led``.)"""
    name, kind = found_title
    if not name:
        return None
    bare = strip_article(name)  # "The Curse of ..." is parsed as "Curse of ..."
    found = names.find(name) or names.find(bare) or names.add(name, -1)
    if found is not None:
        if found.key in (norm_name(name), norm_name(bare)):
            found.name = name  # as the title writes it; an alias found the owner and keeps its name
        found.is_title = found.proper = True
        found.stated_type = found.stated_type or kind
        _title_variants(names, found)
    return found


def _title_variants(names: Names, title: Candidate) -> None:
    """When the document is about a person, that person under a fuller name ("Helen
    Elizabeth Hunt" in "Helen Hunt") or a first or last name alone ("Haymo", "Hunt") is the
    title's entity again, not a second concept of the same text. A title that is no person's
    name ("Helm Enters the CNCF") takes nobody's name: its first word names something else."""
    words = title.key.split()
    if len(words) < 2:
        return

    def fuller(c: Candidate) -> bool:
        other = c.key.split()
        return len(other) > len(words) and other[0] == words[0] and other[-1] == words[-1] and "of" not in other

    fullers = [c for c in names.by_key.values() if c is not title and fuller(c)]
    if not (_a_person(title) or any(_a_person(c) for c in fullers)):
        return
    shorts = [c for c in names.by_key.values() if c.proper and c.key in (words[0], words[-1]) and c is not title]
    for c in [*fullers, *shorts]:
        names.alias(title, c.name)


def _a_person(c: Candidate) -> bool:
    return bool(c.labels) and c.labels.most_common(1)[0][0] == "PERSON"


def _section_subject(heading: Any, names: Names, entry: bool = False) -> Candidate | None:
    """The thing a section's heading names ("Counter", "The Prometheus server"); a heading
    that is a task or a question ("Installing Helm", "How it works") names none. A section
    that opens by saying what something does with no subject ("Returns the first item") is a
    reference entry: its heading names the thing even when the text never writes it again,
    and a one-word heading there is an identifier whatever the tagger makes of it
    ("trimAll")."""
    if heading is None or len(heading) == 0:
        return None
    # a function word ("and", "not") is never a name a question could be matched against
    identifier = entry and " " not in heading.text.strip() and not all(t.is_stop or t.is_punct for t in heading)
    root = next((t for t in heading if t.dep_ == "ROOT"), heading[0])
    named = root.pos_ in ("NOUN", "PROPN") and not any(t.pos_ in ("VERB", "AUX") for t in heading)
    if not (named or identifier):
        return None
    proper = any(t.pos_ == "PROPN" for t in heading)
    name = heading.text.strip() if identifier else name_of(trim(list(heading), common=not proper))
    found = names.find(name) if name else None
    if found is None and entry and name and "," not in name:
        found = names.add(name, 0)
    if found is not None:
        found.in_heading = True
    return found


def _with_subject(name: str, sentence: Any) -> str:
    """ "Returns the first item." under the entry ``first``: "first returns the first item." """
    text = sentence.text.strip()
    return f"{name} {text[:1].lower()}{text[1:]}"


def _entry_description(sentence: Any, n: int, section: Candidate | None) -> None:
    """A reference entry's sentence that says what its subject does ("Returns ...") describes
    it; the first such sentence is its definition."""
    if section is None:
        return
    section.define(_with_subject(section.name, sentence), n)


def _definition(sentence: Any, n: int, names: Names, section: Candidate | None) -> None:
    """ "X is a Y ...": X's definition is the sentence and Y's head noun its stated kind. A
    pronoun subject ("It is a ...") defines what the section is about."""
    root = sentence.root
    if root.lemma_ not in _COPULAS:
        return
    subjects = [t for t in root.children if t.dep_ == "nsubj"]
    attr = next((t for t in root.children if t.dep_ == "attr" and t.pos_ in ("NOUN", "PROPN")), None)
    if len(subjects) != 1 or attr is None or any(t.dep_ == "neg" for t in root.children):
        return  # two subjects: a list taken up again ("X, Y, Z -- these things are ...")
    subject = subjects[0]
    if _possessed(subject) or any(t.dep_ == "conj" for t in subject.children):
        # "His epithet was ...": a property of what the text is about; "X and Y are ...":
        # what several things share, which defines none of them
        return
    if subject.pos_ == "PRON":
        # "It is a ..." is the section's subject again; "This was ..." later in a text points
        # back at what the sentence before said, and only opening a text at what it is about
        back = subject.lower_ in _BACK_PRONOUNS and (n == 0 or subject.lower_ not in _DEMONSTRATIVES)
        target = section if back else None
    elif subject.pos_ == "NOUN" and _refers_back(subject) and not any(t.dep_ == "compound" for t in subject.children):
        target = section  # "The film is a 1952 comedy": the film the text is about
    else:
        # the phrase the sentence defines, modifiers and all ("Tidal counselling is a form of
        # psychotherapy"), and a proper name with its "of" ("The Curse of the Jade Scorpion")
        name = name_of(trim(subject_phrase(subject), common=False))
        target = (names.find(name) or names.add(name, n)) if name else None
    if target is None:
        return
    said = clip(sentence.text.strip(), MAX_DESCRIPTION)
    target.description = target.description or said
    if subject.pos_ != "PRON":
        # "It is a ..." describes the section's subject but cannot lead its summary alone
        target.definition = target.definition or said
    # "X is a Y" puts X in the class Y, and so does "X is the Y used to ..." for a thing; for a
    # person it names a role ("was the inspiration for"), which says less than the label
    indefinite = any(t.dep_ == "det" and t.lower_ in ("a", "an") for t in attr.children)
    attr = _past_form_word(attr)
    if attr.pos_ == "NOUN" and attr.lemma_.isalpha() and (indefinite or not _a_person(target)):
        target.stated_type = target.stated_type or attr.lemma_.lower()
    target.sentences.add(n)


def subject_phrase(subject: Any) -> list[Any]:
    """The words a subject names: up to its head, and for a proper name also what follows it
    up to a comma, a bracket or a clause ("The Curse of the Jade Scorpion is ...")."""
    tokens = [t for t in subject.subtree if t.i <= subject.i]
    if subject.pos_ == "PROPN":
        for t in subject.doc[subject.i + 1 : subject.right_edge.i + 1]:
            if t.is_punct or t.dep_ in ("relcl", "acl", "appos", "advcl"):
                break
            tokens.append(t)
    return tokens


def _possessed(token: Any) -> bool:
    """ "His scholastic epithet", "its default port": a phrase owned by what a pronoun refers to."""
    return any(c.dep_ == "poss" and c.lower_ in _BACK_PRONOUNS for c in token.children)


def _past_form_word(attr: Any) -> Any:
    """ "a form of metamorphic rock": the kind is the rock, not the form."""
    if attr.lemma_.lower() in FORM_WORDS:
        of = next((t for t in attr.children if t.dep_ == "prep" and t.lower_ == "of"), None)
        obj = next((t for t in of.children if t.dep_ == "pobj" and t.pos_ == "NOUN"), None) if of is not None else None
        return obj if obj is not None else attr
    return attr


def _select(names: Names, chars: int, subject: Candidate | None, vocab: Any) -> list[Candidate]:
    """The names worth a page: the title, what a heading or a definition names, every entity
    the recogniser finds, a proper noun it missed but the text repeats, and a compound common
    term the text keeps coming back to (in two sentences). One capitalised word in one
    sentence is as often a button or a column as a name."""

    # "the film" in a text about a film is that film again, not a concept of its own
    kinds = {subject.stated_type, *subject.heads} if subject is not None else set()

    # a piece of another name's stated alias ("First Circle" in "Games of the First Circle")
    pieces = {w for c in names.by_key.values() for a in c.aliases if " " in a for w in inner_keys(a)}

    def keep(c: Candidate) -> bool:
        many = len(c.sentences)
        if c.key in pieces and not c.entity and not c.aliases:
            return False
        if not c.proper and c.key in kinds and c is not subject:
            return False
        if c.in_heading and not (c.proper or c.entity or c.description or " " in c.name) and vocab.has_vector(c.key):
            # one everyday word (one the model has a vector for) heading a section ("Examples")
            # is its topic; it names a thing when the section says something of it as a
            # subject. A word the model never saw is an identifier ("divf").
            return c.subject_of > 0 or many >= 2
        if c.is_title or c.in_heading or c.description or c.entity or c.aliases:
            return True  # a stated alias says the text names the thing
        if c.proper:
            return many >= 2 or c.written_as_name or c.listed
        # A common term of several words is specific ("dependency update"); one everyday word
        # ("characters", "village") names a page only where the text says what it means
        # (a definition, kept above) or heads a section with it: otherwise it is vocabulary.
        return " " in c.name and many >= 2

    def named(c: Candidate) -> bool:
        # what the text defines or heads a section with, and the names it gives, before
        # common terms however often they recur
        return bool(c.description) or c.in_heading or c.entity or c.proper or bool(c.aliases)

    def rank(c: Candidate) -> tuple[bool, bool, float, int]:
        weight = len(c.sentences) + 2 * bool(c.description) + c.entity + c.in_heading + 0.5 * c.subject_of
        return (not c.is_title, not named(c), -weight, c.first)

    # A name the recogniser found is worth its place however many a text holds; common terms
    # share a budget that grows with the text, as a reader's index would.
    pool = sorted((c for c in names.by_key.values() if keep(c)), key=rank)
    kept_names = [c for c in pool if named(c)][: 40 + chars // 100]
    common = [c for c in pool if not named(c)][: 5 + chars // 300]
    return kept_names + common


def _claims(
    sentences: list[Any],
    chosen: list[Candidate],
    section: Candidate | None,
    described: set[int],
    items: dict[int, Candidate],
) -> list[ExtractedClaim]:
    mentions = Mentions(list(chosen))
    claims: list[ExtractedClaim] = []
    last: Candidate | None = section
    for n, sentence in enumerate(sentences):
        text = sentence.text.strip()
        if len(sentence) < 4 or text.endswith(":") or not any(t.pos_ in _CONTENT for t in sentence):
            continue  # a lead-in to what follows, or words with no thing in them ("It appears so.")
        found: list[Candidate] = [c for c in mentions(text) if isinstance(c, Candidate)]  # narrows Named
        if n in items and items[n] in chosen:
            # a definition-list item is about its term, whatever its parse's subject
            term = items[n]
            claims.append(
                ExtractedClaim(
                    text=text, about=[c.name for c in [term, *(c for c in found if c is not term)]][:_MAX_ABOUT]
                )
            )
            last = term
            continue
        if n in described and section is not None and section in chosen:
            # what the entry's subject does, said with the subject the sentence leaves out
            about = [section, *(c for c in found if c is not section)]
            claims.append(
                ExtractedClaim(text=_with_subject(section.name, sentence), about=[c.name for c in about[:_MAX_ABOUT]])
            )
            continue
        subject = _named_subject(sentence, found, last)
        if subject is None and not (found and any(t.dep_ in _SUBJECTS for t in sentence)):
            continue  # an instruction or a fragment: no subject at all
        about = [subject, *(c for c in found if c is not subject)] if subject is not None else found
        claims.append(ExtractedClaim(text=text, about=[c.name for c in about[:_MAX_ABOUT]]))
        last = subject
    return claims


def _named_subject(sentence: Any, about: list[Candidate], last: Candidate | None) -> Candidate | None:
    """The concept a sentence's subject names: one of its concepts inside a subject phrase,
    or the concept a referring subject ("it", "the chart") points back to."""
    subjects = [t for t in sentence if t.dep_ in _SUBJECTS]
    # in a passive sentence the agent does what is said ("is copied by Brindle"); a subject that
    # names or refers back to a concept comes first ("It was designed by Ora Fenn")
    agents = [c for t in sentence if t.dep_ == "agent" for c in t.children if c.dep_ == "pobj"]
    referent = last if last is not None else (about[0] if about else None)
    for token in subjects:
        if _possessed(token):
            return referent
        if (named := _naming(token, sentence, about)) is not None:
            return named
        if token.lower_ in _BACK_PRONOUNS or (token.pos_ == "NOUN" and _refers_back(token)):
            return referent
    for token in agents:
        if (named := _naming(token, sentence, about)) is not None:
            return named
    if about:
        # a parse that found no subject in a sentence that opens with a name ("Neo4j stores
        # graphs" read as one noun phrase): the name is its subject; an instruction opens
        # with its verb instead
        lead = sentence.text.lstrip("\"'(“ ").casefold()
        return next((c for c in about if any(lead.startswith(f.casefold()) for f in [c.name, *c.aliases])), None)
    return None


def _naming(token: Any, sentence: Any, about: list[Candidate]) -> Candidate | None:
    """The concept a phrase (a token's subtree) names, if any."""
    words = " ".join(sentence.doc[i].text for i in sorted(t.i for t in token.subtree)).casefold()
    return next((c for c in about if any(f.casefold() in words for f in [c.name, *c.aliases])), None)


def _refers_back(token: Any) -> bool:
    """ "The tool", "This release": a definite noun phrase with nothing naming it anew."""
    return any(t.dep_ == "det" and t.lower_ in ("the", "this", "these") for t in token.children)


def extract(req: ExtractRequest, nlp: Any = None) -> ExtractResponse:
    """One document with the default pipeline and the general preset's label mapping."""
    from graphwiki_assets.core.nlp.model import load_pipeline

    return extract_parsed([req], [], nlp if nlp is not None else load_pipeline())[0]
