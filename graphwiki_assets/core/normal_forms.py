"""The forms in which names and words are compared: one home for every such rule.

Two forms of a name, on purpose:
- ``name_key`` is what ingest stores on a concept (``Concept.keys``) and what entity
  linking looks a question's names up by. Its rule is frozen: a graph holds keys made with
  it, and a changed rule would stop them from matching.
- ``name_tokens`` (``norm_name``, ``compact``) is what the offline rules match names by:
  a little looser ('&' reads 'and', a possessive goes) and more careful with a final s
  ('Paris' and 'virus' stay whole, where ``name_key`` gives 'pari' and 'viru').

A plural is undone by ``drop_plural_s`` (a name's final s) or ``singular`` (a common noun's
ending: -ies, -ches, -xes...). A name gets only the former: as the end of a name, 'Cities'
or 'Rockies' is more often the name itself than a plural.
"""

from __future__ import annotations

import re
import unicodedata

NOT_PLURAL = ("ss", "us", "is")  # a final s that makes no plural: class, virus, analysis, Paris
# The rule stored keys were made with: only 'ss' kept ('Paris' -> 'pari', 'virus' -> 'viru').
_KEY_NOT_PLURAL = ("ss",)

_ARTICLES = {"the", "a", "an"}
_NON_WORD = re.compile(r"[^\w\s]+")
_SPACE = re.compile(r"\s+")


def drop_plural_s(word: str, not_plural: tuple[str, ...] = NOT_PLURAL) -> str:
    """``word`` without a final plural 's'; a word of three letters or fewer is left alone."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith(not_plural) else word


def singular(word: str) -> str:
    """A common noun's singular: 'cities' -> 'city', 'churches' -> 'church', 'classes' ->
    'class', 'databases' -> 'database'; 'status' and 'analysis' stay as they are."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "ches", "shes", "xes")):
        return word[:-2]
    return drop_plural_s(word)


def name_key(name: str) -> str:
    """Case, accents, punctuation, leading articles and a plural 's' do not make another entity."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode() or name
    text = _SPACE.sub(" ", _NON_WORD.sub(" ", text.lower())).strip()
    words = text.split(" ")
    while len(words) > 1 and words[0] in _ARTICLES:
        words = words[1:]
    words[-1] = drop_plural_s(_major_version(words, len(words) - 1), _KEY_NOT_PLURAL)
    return " ".join(words)


def _major_version(words: list[str], at: int) -> str:
    """ "v2" after a name is the name's major version 2: "Helm v2" and "Helm 2" are one name."""
    word = words[at]
    return word[1:] if at > 0 and len(word) > 1 and word[0] == "v" and word[1:].isdigit() else word


def spaced_name_key(name: str) -> str:
    """A proper name's key with its spaces gone ('Alert Manager', 'Alert-Manager' ->
    'alertmanager', which is ``name_key('AlertManager')``): spacing and hyphens are how a
    name is written, not which thing it is. Only for a name of several words with a capital
    (a common phrase such as 'data base' is left to the other rules), and only when the
    joined key is long enough not to collide by chance; empty otherwise."""
    if not any(ch.isupper() for ch in name):
        return ""
    words = name_key(name).split(" ")
    joined = "".join(words)
    return joined if len(words) > 1 and len(joined) >= 6 else ""


def strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def name_tokens(name: str) -> list[str]:
    """Lowercase tokens of a name: accents, punctuation and a leading 'the' removed,
    '&' read as 'and', a final plural 's' dropped."""
    s = strip_accents(name).lower().replace("&", " and ")
    s = re.sub(r"'s\b", "", s)
    toks = re.findall(r"[a-z0-9]+", s)
    if len(toks) > 1 and toks[0] == "the":
        toks = toks[1:]
    if toks:
        toks[-1] = drop_plural_s(_major_version(toks, len(toks) - 1))
    return toks


def norm_name(name: str) -> str:
    return " ".join(name_tokens(name))


def compact(name: str) -> str:
    """Name with all separators gone: 'Postgre SQL', 'postgre-sql' and 'PostgreSQL' agree."""
    return "".join(name_tokens(name))
