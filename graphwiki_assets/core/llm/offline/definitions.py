"""Definitions: "X is a/an/the (adj)* Y ..." gives a subject and a type from Y's head."""

from __future__ import annotations

import re

from graphwiki_assets.core.llm.offline.names import CATEGORY_NOUNS
from graphwiki_assets.core.normal_forms import drop_plural_s
from graphwiki_assets.core.text.type_names import PERSON_ROLES
from graphwiki_assets.core.text.words import STOPWORDS

_COPULA = re.compile(
    r"^(?P<subj>.{1,160}?)\s+(?:is|was|are|were|has\s+been|had\s+been|remains|became)\s+"
    r"(?:also\s+|now\s+|still\s+|currently\s+|originally\s+|formerly\s+)?(?P<det>an?|the|one\s+of\s+the)\s+(?P<pred>.+)$"
)
_SEGMENT_SKIP = re.compile(
    r"^(?:in|on|at|after|before|during|with|by|as|although|when|while|since|from|for|under|"
    r"created|founded|located|born|based|known|also|officially|commonly|formerly|which|who|like|unlike)\b",
    re.IGNORECASE,
)
_PRED_STOP = frozenset(
    """of in on at by for from with to into within near between about under over during since
    until based located which that who whose where when whereas while and or but as than
    known called founded created""".split()
)
FORM_WORDS = frozenset(
    "form type kind sort variety species genus style subset variant breed dialect brand version".split()
)
_NO_TYPE = frozenset(
    """member part one group series number pair set collection list name home son daughter wife
    husband father mother brother sister child children parent cousin nephew niece uncle aunt
    grandson granddaughter widow friend""".split()
)
# Words that modify a head noun and are never one themselves, and words that usually
# are adjectives but could end a phrase ("international").
_MODIFIER = re.compile(r"(ly|ed|ing|est|ous|ful|less|able|ible)$")
_ADJECTIVAL = re.compile(r"(ly|al|ic|ous|ive|ful|less|ed|ing|able|ible|ary|ern|est)$")
_IRREGULAR_PARTICIPLES = frozenset(
    """found made built known held born written sold led run given taken seen shown grown drawn
    worn left kept set put won begun brought bought thought told sent spent paid laid meant
    become begun chosen driven eaten fallen flown forgotten hidden ridden risen spoken stolen
    sworn thrown woken""".split()
)
_ORDINALS = frozenset("first second third fourth fifth last main only same other new old former major minor".split())


def definition(sentence: str) -> tuple[str, str | None] | None:
    """(subject, type) from "X is a/an/the (adj)* Y ..."; subject may be a pronoun."""
    m = _COPULA.match(sentence)
    if not m:
        return None
    subj_text = re.sub(r"\([^()]*\)", "", m.group("subj"))
    subject = None
    for seg in subj_text.split(","):
        seg = seg.strip().strip('"')
        if seg and not _SEGMENT_SKIP.match(seg):
            subject = seg
            break
    if not subject or len(subject.split()) > 8:
        return None
    if re.search(r"\s(?:is|was|are|were)\s", f" {subject} "):
        return None
    return subject, predicate_head(m.group("pred"))


def predicate_head(pred: str) -> str | None:
    """Head noun of a predicate: the last plain noun before a preposition, clause or
    participle ("a quarterly peer-reviewed journal published by" -> Journal)."""
    head = None
    for w in re.findall(r"[A-Za-z][\w\-']*|\d+|[,;:()]", pred):
        low = w.lower()
        if low in _PRED_STOP or low in STOPWORDS or not re.match(r"[A-Za-z\d]", w):
            if low == "of" and head in FORM_WORDS:
                head = None  # "a form of psychotherapy": the head is what follows
                continue
            break
        if w[:1].isupper() or w.isdigit() or low in _ORDINALS:
            continue
        if low in _IRREGULAR_PARTICIPLES and head:
            break  # "rock found near ..."
        if _MODIFIER.search(low) and low not in CATEGORY_NOUNS and low not in PERSON_ROLES and len(low) > 4:
            if head and not _ADJECTIVAL.search(head) and re.search(r"(ed|ing|ly)$", low):
                break  # "journal published monthly": a participle after the head
            continue
        head = low
    if not head or head in _NO_TYPE or head in FORM_WORDS or len(head) < 3:
        return None
    if _ADJECTIVAL.search(head) and head not in CATEGORY_NOUNS and head not in PERSON_ROLES:
        return None
    # Not normal_forms.singular, which reads 'churches' as 'church' (here 'churche'): that
    # would change what the rules answer, which only a new OFFLINE_LABEL may do.
    head = head[:-3] + "y" if head.endswith("ies") else drop_plural_s(head)
    return head.capitalize()
