"""What kind of thing a name denotes, read from the section it is listed in: a heading that
names a kind of thing in the plural ("Maintainers", "Supported tools") lists things of that
kind, and a name that reads as a person's under "Maintainers" is a person. The word it gives
("Tool", "Person") reaches the configured types through the taxonomy.
"""

from __future__ import annotations

import re

from graphwiki_assets.core.config.kinds import kinds_of
from graphwiki_assets.core.llm.offline.names import CATEGORY_NOUNS
from graphwiki_assets.core.normal_forms import singular
from graphwiki_assets.core.text.type_names import PERSON_ROLES
from graphwiki_assets.core.text.words import STOPWORDS

_NAME_WORD = re.compile(r"[A-Z][a-z]+(?:[\-'][A-Z]?[a-z]+)?|[A-Z]\.")


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
