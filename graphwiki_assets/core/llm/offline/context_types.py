"""What kind of thing a name denotes, read from the sentence around it and its section.

The name alone rarely says ("Kestrel" may be a person, a tool or a bird); the text around
it often does, in a few common English forms:

- an appositive: "Kestrel, a key-value store, ..." (the head noun of the phrase);
- a list introduced by its kind: "tools such as Kestrel and Osprey", "systems like Kestrel";
- a kind noun right after the name: "the Kestrel tool", "the Kestrel kernel";
- a release number after it or in it: "Kestrel 3.5", "Kestrel v1.2" (a made thing: software);
- a year ending it: "Kestrelcon 2023" (one edition of an event);
- a person's name with a profile link or handle after it, "by", "thanks to", "said";
- a company suffix after a comma: "Kestrel, Inc."; where people work ("engineers at
  Kestrel"), who acquires, sponsors or hires ("acquired by Kestrel", "Kestrel's engineers");
- what one does with software: "install Kestrel", "upgrade Kestrel";
- the section it sits in: a name that reads as a person's under "Maintainers", any name
  under "Tools" or "Companies" (a heading that names a kind of thing, in the plural, lists them).

Each cue gives a word ("store", "tool", "Person"); the taxonomy maps words to its types.
"""

from __future__ import annotations

import re

from graphwiki_assets.core.config.kinds import KIND_WORDS, kinds_of
from graphwiki_assets.core.llm.offline.definitions import predicate_head
from graphwiki_assets.core.llm.offline.names import CATEGORY_NOUNS
from graphwiki_assets.core.normal_forms import singular
from graphwiki_assets.core.text.type_names import PERSON_ROLES
from graphwiki_assets.core.text.words import STOPWORDS

_APPOSITIVE = re.compile(r"^\s*,\s*(?:an?|the|one\s+of\s+the)\s+(?P<pred>[^,;:()]{3,80})")
_LIST_INTRO = re.compile(
    r"(?P<kind>[a-z][a-z\-]+)\s+(?:such\s+as|like|including|e\.g\.,?)\s+(?:[^.;:()]{0,120}?(?:,|\band\b|\bor\b)\s*)?"
    r"[\"'\[]?$"
)
_NOUN_AFTER = re.compile(r"^[\"'\]]?\s+(?P<noun>[a-z][a-z\-]+)\b")
_VERSION_AFTER = re.compile(r"^[\"'\]]?\s+v?\d+(?:\.\d+)+\b|^[\"'\]]?\s+v\d+\b")
_PROFILE_AFTER = re.compile(
    r"^\]?\s*\(\s*(?:@[\w\-]+|(?:https?://)?(?:www\.)?(?:github|gitlab|twitter|x|linkedin)\.com/[\w\-]+)",
    re.IGNORECASE,
)
_PERSON_BEFORE = re.compile(r"(?:\bby|\bthanks\s+to|\bauthored\s+by|\bwritten\s+by|\bfrom)\s+\[?$", re.IGNORECASE)
_PERSON_AFTER = re.compile(r"^\]?\s*(?:,\s*who\b|\s+(?:said|says|wrote|writes|explained|explains|noted|added)\b)")
_ENDS_IN_RELEASE = re.compile(r"[A-Za-z]\s+v?\d+\.\d+(?:\.\d+)*$")  # "Go 1.12": a release of software
_ENDS_IN_YEAR = re.compile(r"[A-Za-z]\s+(?:19|20)\d\d$")
_COMPANY_AFTER = re.compile(r"^,?\s+(?:Inc|Ltd|LLC|Corp|GmbH|Co)\b\.?")
# What one does with software: install it, download it, upgrade it, deploy it ("run" is
# left out: one runs an algorithm, a query or a test as well).
_SOFTWARE_BEFORE = re.compile(
    r"\b(?:install|installs|installed|installing|download|downloads|downloading|upgrade|upgrades|upgrading|"
    r"deploy|deploys|deploying|compile|compiles)\s+(?:the\s+|a\s+|an\s+)?[\"'\[]?$",
    re.IGNORECASE,
)
# Where people work and who buys or sponsors: an organisation.
_ORG_BEFORE = re.compile(
    r"\b(?:(?:engineers?|developers?|employees?|researchers?|staff|team|maintainers?|folks)\s+(?:at|from)|"
    r"acquired\s+by|sponsored\s+by|funded\s+by|employed\s+by|works\s+at|worked\s+at|working\s+at)\s+\[?$",
    re.IGNORECASE,
)
_ORG_AFTER = re.compile(
    r"^\]?'s?\s+(?:engineers?|employees?|staff|founders?|ceo|cto|headquarters|offices?|acquisition)\b|"
    r"^\]?\s+(?:acquired|announced|hired|sponsors|sponsored|employs|donated)\b",
    re.IGNORECASE,
)
_NAME_WORD = re.compile(r"[A-Z][a-z]+(?:[\-'][A-Z]?[a-z]+)?|[A-Z]\.")
# Nouns after a name that describe the name's owner or a part of it, not the name itself.
_NOT_KIND_AFTER = frozenset("member members user users team community project maintainers".split())


def looks_like_person(name: str) -> bool:
    """Two to four capitalised words, none a kind noun, a stopword or a technical mark
    ("Grace Hopper", "G. Stanley Hall"): the shape of a person's name."""
    words = name.split()
    if not 2 <= len(words) <= 4 or not all(_NAME_WORD.fullmatch(w) for w in words):
        return False
    lowered = [w.lower().rstrip(".") for w in words]
    if any(w in STOPWORDS or w in CATEGORY_NOUNS or w in PERSON_ROLES or kinds_of(w) for w in lowered):
        return False
    return not words[-1].endswith(".")


def context_type(sentence: str, start: int, end: int, name: str) -> str | None:
    """The kind word the sentence gives the name at ``sentence[start:end]``, if any."""
    before, after = sentence[:start], sentence[end:]
    person_shaped = looks_like_person(name)
    if person_shaped and (_PROFILE_AFTER.match(after) or _PERSON_AFTER.match(after) or _PERSON_BEFORE.search(before)):
        return "Person"
    if _COMPANY_AFTER.match(after):
        return "Company"
    if m := _APPOSITIVE.match(after):
        head = predicate_head(m.group("pred"))
        if head and (kinds_of(head) or head.lower() in CATEGORY_NOUNS or head.lower() in PERSON_ROLES):
            return head
    if m := _LIST_INTRO.search(before):
        kind = singular(m.group("kind"))
        if kinds_of(kind) or kind in CATEGORY_NOUNS:
            return kind.capitalize()
    if m := _NOUN_AFTER.match(after):
        noun = singular(m.group("noun"))
        if noun not in _NOT_KIND_AFTER and not _person_word(noun) and (kinds_of(noun) or noun in CATEGORY_NOUNS):
            return noun.capitalize()
    if _ORG_BEFORE.search(before) or _ORG_AFTER.match(after):
        return "Organization"
    if _SOFTWARE_BEFORE.search(before) or _VERSION_AFTER.match(after) or _ENDS_IN_RELEASE.search(name):
        return "Software"
    if _ENDS_IN_YEAR.search(name):
        return "Event"  # "KubeCon 2023", "World Cup 2022": one edition of a recurring event
    return None


def _person_word(word: str) -> bool:
    return word in PERSON_ROLES or "person" in kinds_of(word)


def section_type(section: str, name: str) -> str | None:
    """A heading that names a kind of thing in the plural ("Maintainers", "Supported
    tools") lists things of that kind: its kind word, for a name that fits it."""
    last = section.split(" > ")[-1].strip() if section else ""
    words = re.findall(r"[A-Za-z][A-Za-z\-]*", last)
    if not words:
        return None
    head = words[-1].lower()
    one = singular(head)
    if one == head and head != "people":
        return None  # a singular heading ("Maintenance", "The tool") is about one thing, not a list
    kinds = kinds_of(one) or kinds_of(head)
    if not kinds and one not in CATEGORY_NOUNS and one not in PERSON_ROLES:
        return None
    if "person" in kinds or one in PERSON_ROLES:
        return "Person" if looks_like_person(name) else None
    if looks_like_person(name) or name[:1].islower():
        return None  # a person's name under "Tools" is an author; a lowercase term is no member
    return one.capitalize()


def is_kind_word(word: str) -> bool:
    key = singular(word.lower())
    return any(key in words for words in KIND_WORDS.values())
