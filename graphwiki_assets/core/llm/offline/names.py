"""Rules about names: acronyms, numeronyms, and what kind of thing a name denotes."""

from __future__ import annotations

import re
from functools import lru_cache

from graphwiki_assets.core.normal_forms import strip_accents
from graphwiki_assets.core.text.words import STOPWORDS

# Words an acronym may skip ("Museum of Modern Art" -> MoMA keeps "of", NASA skips "and").
_ACRONYM_SKIPPABLE = STOPWORDS | {"de", "la", "le", "du", "des", "von", "van", "der", "für"}


def acronym_letters(text: str) -> str | None:
    """The letters of ``text`` if it is written like an abbreviation (NYC, U.S., MoMA, GPUs)."""
    s = text.strip().replace(".", "")
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9&]{1,9}", s):
        return None
    if s.endswith("s") and s[:-1].isupper() and len(s) > 2:
        s = s[:-1]  # plural: GPUs
    upper = sum(c.isupper() for c in s)
    if upper < 2 or upper < len(s) * 0.5:
        return None
    return s.upper().replace("&", "")


def _camel_split(token: str) -> list[str]:
    parts = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", token)
    return parts or [token]


@lru_cache(maxsize=4096)
def _long_tokens(long: str) -> tuple[tuple[str, bool], ...]:
    """(token, may_skip) pairs of a long form, split on spaces, hyphens and CamelCase."""
    out: list[tuple[str, bool]] = []
    for raw in re.findall(r"[^\W_]+", strip_accents(long)):
        for part in _camel_split(raw):
            out.append((part.lower(), part.lower() in _ACRONYM_SKIPPABLE))
    return tuple(out)


def is_acronym_of(short: str, long: str) -> bool:
    """True when ``short`` abbreviates ``long``: every meaningful word of the long form
    gives at least its first letter, in order ("GDS"/"Graph Data Science",
    "NASA"/"National Aeronautics and Space Administration", "JSON"/"JavaScript Object
    Notation"), or ``short`` is a numeronym of a single word ("K8s"/"Kubernetes")."""
    if numeronym_of(short, long):
        return True
    letters = acronym_letters(short)
    if letters is None:
        return False
    toks = _long_tokens(long)
    if len(toks) < 2 or len(letters) > len("".join(t for t, _ in toks)) - 1:
        return False
    return _match(letters.lower(), toks, 0, 0)


def _match(letters: str, toks: tuple[tuple[str, bool], ...], i: int, j: int) -> bool:
    if j == len(toks):
        return i == len(letters)
    tok, skippable = toks[j]
    if skippable and _match(letters, toks, i, j + 1):
        return True
    # take a non-empty prefix of this token
    k = 0
    while i + k < len(letters) and k < len(tok) and letters[i + k] == tok[k]:
        k += 1
        if _match(letters, toks, i + k, j + 1):
            return True
    return False


def numeronym_of(short: str, long: str) -> bool:
    m = re.fullmatch(r"([A-Za-z])(\d{1,2})([A-Za-z])", short.strip())
    word = long.strip().lower()
    if not m or not word.isalpha():
        return False
    first, n, last = m.group(1).lower(), int(m.group(2)), m.group(3).lower()
    return word[0] == first and word[-1] == last and len(word) - 2 == n


# Category nouns: as the head of a name ("Leopold Museum", "University of Copenhagen")
# or of a definition ("is a city in ...") they tell what kind of thing it is.
CATEGORY_NOUNS = frozenset(
    """academy act agency airline airport album alliance army association award band bank
    battle bay beach book bridge building canal canyon castle cathedral cemetery channel
    championship chapel church city club coalition college comedy command commission committee
    company conference congregation congress constitution convention corporation council county
    court cup dam database department desert district dynasty election empire engine festival
    film firm forest format fort foundation framework gallery garden group hall highway
    hospital hotel house index institute island journal kingdom lake language law league
    library magazine mall manor market ministry model monastery monument mosque mountain museum
    navy network newspaper novel office opera orchestra order organization palace park party
    peninsula play plaza poem port prize program programme project protocol province railway
    range record region religion republic reservoir review river road route school sea series
    service ship show society song square stadium standard state station statue street studio
    symphony synagogue system team temple territory theater theatre tool tournament tower town
    treaty tribe tunnel union university valley village war website""".split()
)


_DEMONYM = re.compile(r"(?:[A-Z][a-z]+-)?[A-Z][a-z]+(?:an|ean|ian|ese|ish|ic|i|ch|ss)$")
_DIRECTIONS = frozenset("north south east west northern southern eastern western central upper lower greater".split())


def is_adjectival(tokens: list[str]) -> bool:
    """Capitalised words that read as adjectives: demonyms and directions ("American",
    "South Appalachian Mississippian")."""
    return all(_DEMONYM.fullmatch(t) or t.lower() in _DIRECTIONS for t in tokens) and any(
        _DEMONYM.fullmatch(t) for t in tokens
    )
