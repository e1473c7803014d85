"""Rules about names: acronyms, numeronyms, and what kind of thing a name denotes."""

from __future__ import annotations

import re
from functools import lru_cache

from graphwiki_assets.core.llm.offline.text import STOPWORDS
from graphwiki_assets.core.normal_forms import drop_plural_s, strip_accents

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

PERSON_ROLES = frozenset(
    """actor actress admiral archbishop architect artist astronaut astronomer athlete author
    bassist biologist bishop boxer businessman businesswoman cardinal carpenter chancellor chef
    chemist coach collaborator comedian commander composer conductor dancer designer diplomat
    director drummer economist editor emperor empress engineer entrepreneur explorer footballer
    founder general governor guitarist historian inventor journalist judge king lawyer leader
    linguist lyricist manager mathematician mayor minister model monarch musician novelist
    painter philosopher photographer physician physicist pianist pilot player playwright poet
    politician pope president priest prince princess producer professor psychologist queen
    rapper researcher saint scholar scientist screenwriter sculptor senator singer singer-songwriter
    soldier songwriter statesman surgeon teacher theologian violinist writer chairman chairwoman
    executive detective representative
    chairperson ceo secretary""".split()
)

_CORPORATE = frozenset("inc ltd llc corp co plc gmbh ag sa nv bv oy ab".split())
_TITLES = frozenset("mr mrs ms dr sir lord lady dame prof professor saint st king queen prince princess".split())

# Types that say nothing about identity: never evidence that two things differ.
GENERIC_TYPES = frozenset(
    {"", "concept", "entity", "thing", "other", "unknown", "term", "topic", "item", "object", "name"}
)

_TYPE_GROUPS = [
    {"person", "people", "human", "individual", *PERSON_ROLES},
    {
        "organization",
        "organisation",
        "company",
        "corporation",
        "firm",
        "business",
        "enterprise",
        "agency",
        "institution",
        "vendor",
        "startup",
        "group",
        "bank",
        "publisher",
        "label",
        "record",
        "band",
        "duo",
        "trio",
        "ensemble",
        "orchestra",
        "choir",
        "team",
        "club",
        "party",
        "university",
        "college",
        "school",
    },
    {
        "place",
        "location",
        "city",
        "town",
        "village",
        "country",
        "state",
        "region",
        "province",
        "county",
        "territory",
        "district",
        "nation",
        "capital",
        "municipality",
        "republic",
        "kingdom",
    },
    {
        "software",
        "tool",
        "system",
        "product",
        "service",
        "platform",
        "database",
        "framework",
        "library",
        "application",
        "program",
        "language",
        "engine",
        "protocol",
        "format",
        "api",
        "technology",
        "standard",
        "package",
        "index",
        "model",
        "algorithm",
        "method",
        "technique",
    },
    {
        "work",
        "book",
        "novel",
        "film",
        "movie",
        "album",
        "song",
        "play",
        "poem",
        "series",
        "show",
        "soundtrack",
        "score",
        "opera",
        "symphony",
        "journal",
        "magazine",
        "newspaper",
        "publication",
        "periodical",
    },
    {"event", "war", "battle", "election", "festival", "tournament", "championship", "games", "olympics", "conference"},
]


def type_key(type_name: str) -> str:
    toks = re.findall(r"[a-z]+", type_name.lower())
    if not toks:
        return ""
    return drop_plural_s(toks[-1])


def types_conflict(a: str, b: str) -> bool:
    """Two specific types that no synonym group brings together."""
    ka, kb = type_key(a), type_key(b)
    if ka in GENERIC_TYPES or kb in GENERIC_TYPES or ka == kb:
        return False
    for group in _TYPE_GROUPS:
        if ka in group and kb in group:
            return False
    groups_a = {i for i, g in enumerate(_TYPE_GROUPS) if ka in g}
    groups_b = {i for i, g in enumerate(_TYPE_GROUPS) if kb in g}
    if groups_a and groups_b:
        return not groups_a & groups_b
    # one type in a known group and one outside it may be synonyms we do not list
    # ("City" / "Metropolis"); two unlisted, different types are taken at their word
    return not groups_a and not groups_b


def disjoint_types(a: str, b: str) -> bool:
    """Two types of kinds known never to be one thing (a person and a place, say). Unlike
    ``types_conflict``, two types outside the known kinds are never disjoint here."""
    ka, kb = type_key(a), type_key(b)
    if ka in GENERIC_TYPES or kb in GENERIC_TYPES or ka == kb:
        return False
    groups_a = {i for i, g in enumerate(_TYPE_GROUPS) if ka in g}
    groups_b = {i for i, g in enumerate(_TYPE_GROUPS) if kb in g}
    return bool(groups_a and groups_b and not groups_a & groups_b)


def type_from_name(name: str) -> str | None:
    """'Leopold Museum' -> Museum, 'University of Copenhagen' -> University, 'Dr. X' -> Person."""
    toks = name.split()
    if not toks:
        return None
    if toks[0].lower().rstrip(".") in _TITLES and len(toks) > 1:
        return "Person"
    if any(re.fullmatch(r"[A-Z]\.", t) for t in toks[:-1]) and toks[-1][:1].isupper() and len(toks) <= 4:
        return "Person"  # "G. Stanley Hall", "George T. Solomon"
    lowered = [t.lower().rstrip(".,") for t in toks]
    if lowered[-1] in _CORPORATE and len(toks) > 1:
        return "Company"
    while len(lowered) > 1 and lowered[-1].isdigit():
        lowered.pop()  # "Georgia State Route 17"
    head = lowered[lowered.index("of") - 1] if "of" in lowered[1:] else lowered[-1]
    if (one := drop_plural_s(head)) in CATEGORY_NOUNS:
        head = one
    if head in CATEGORY_NOUNS:
        return head.capitalize()
    return None


_DEMONYM = re.compile(r"(?:[A-Z][a-z]+-)?[A-Z][a-z]+(?:an|ean|ian|ese|ish|ic|i|ch|ss)$")
_DIRECTIONS = frozenset("north south east west northern southern eastern western central upper lower greater".split())


def is_adjectival(tokens: list[str]) -> bool:
    """Capitalised words that read as adjectives: demonyms and directions ("American",
    "South Appalachian Mississippian")."""
    return all(_DEMONYM.fullmatch(t) or t.lower() in _DIRECTIONS for t in tokens) and any(
        _DEMONYM.fullmatch(t) for t in tokens
    )
