"""Type names: the one key a type name is compared by, and which kinds of thing a type
names (a person, an organization, a place, ...), known never to be one thing."""

from __future__ import annotations

import re

from graphwiki_assets.core.normal_forms import singular


def type_key(text: str) -> str:
    """'Record labels', 'record label' and 'RecordLabel' are one type name."""
    return singular(re.sub(r"[^a-z0-9]", "", (text or "").lower()))


def head_key(type_name: str) -> str:
    """The key of a type name's head, its last word ('Football club' -> 'club'): what kind of
    thing a type names."""
    words = re.findall(r"[a-z]+", (type_name or "").lower())
    return type_key(words[-1]) if words else ""


# Roles that name a person: a type named by one ('Politician') is a person's.
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


def types_conflict(a: str, b: str) -> bool:
    """Two specific types that no synonym group brings together."""
    ka, kb = head_key(a), head_key(b)
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
    ka, kb = head_key(a), head_key(b)
    if ka in GENERIC_TYPES or kb in GENERIC_TYPES or ka == kb:
        return False
    groups_a = {i for i, g in enumerate(_TYPE_GROUPS) if ka in g}
    groups_b = {i for i, g in enumerate(_TYPE_GROUPS) if kb in g}
    return bool(groups_a and groups_b and not groups_a & groups_b)
