"""Identifier evidence for the offline judge: versions, model numbers and stock codes.

Two listings of one product differ in the words a seller adds (the maker's name, the
platform, the packaging, a stock code), not in what tells the product from its siblings
(its version, its model number). Hence:

- identifiers that disagree ("Atlas 2" / "Atlas 3", "RX-100" / "RX-200") rule SAME out;
- two names whose own words agree, whose identifiers agree and whose extra words are ones
  the other side's context states (its maker: "Atlas Mapper 4", made by Korvo, and "Korvo
  Atlas Mapper 4"), words aside that any listing adds (platform, medium), name one thing.

Without a version on either side the second rule needs at least two shared words, and a
difference that the other side's context states or that is a stock code: "Atlas Mapper"
made by Korvo and "Korvo Atlas Mapper (Mac)" is one program; "Atlas" / "Atlas Cloud" is
never claimed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphwiki_assets.core.normal_forms import strip_accents
from graphwiki_assets.core.text.words import STOPWORDS

_TOKEN = re.compile(r"[a-z0-9]+(?:\.[0-9]+)*")
_VERSION = re.compile(r"v?(\d+(?:\.\d+)*)")

# Words a seller or a catalogue adds to a product's name without naming another product:
# platform, medium and packaging, the maker's legal form.
SELLER_WORDS = frozenset(
    """mac macintosh pc win windows linux osx dvd cd rom dvdrom cdrom jewel case box boxed retail oem
    download digital software program application app inc ltd limited llc corp corporation co company gmbh
    plc media the for with""".split()
)


@dataclass(frozen=True)
class Listing:
    words: list[str]  # the name's words other than identifiers, in order
    versions: frozenset[str]  # short identifiers: versions, years, model numbers ("x3", "17", "2007")
    codes: frozenset[str]  # long ones: stock codes and part numbers ("10449", "00ids510cc")


def _norm(token: str) -> str:
    """'v17', '17.0' and '17' agree; '2.0' and '2' agree."""
    found = _VERSION.fullmatch(token)
    if not found:
        return token
    parts = found.group(1).split(".")
    while len(parts) > 1 and parts[-1].strip("0") == "":
        parts.pop()
    return ".".join(parts)


def listing(name: str) -> Listing:
    raw = _TOKEN.findall(strip_accents(name).lower().replace("&", " and "))
    tokens: list[str] = []
    for i, tok in enumerate(raw):
        if tok == "v" and i + 1 < len(raw) and raw[i + 1][:1].isdigit():
            continue  # "v 17.0"
        tokens.append(tok)
    words: list[str] = []
    versions: set[str] = set()
    codes: set[str] = set()
    for tok in tokens:
        if any(ch.isdigit() for ch in tok):
            norm = _norm(tok)
            (codes if len(norm.replace(".", "")) >= 5 else versions).add(norm)
        elif tok not in STOPWORDS:
            words.append(tok)
    return Listing(words, frozenset(versions), frozenset(codes))


def identifiers_conflict(a: Listing, b: Listing) -> bool:
    """Each states a version the other lacks ("Atlas 2" / "Atlas 3"; "Atlas 2007" and
    "Atlas 2007 for Win 98" do not conflict), or both state codes and share none."""
    return bool(
        (a.versions - b.versions and b.versions - a.versions) or (a.codes and b.codes and not a.codes & b.codes)
    )


def _found(word: str, other: list[str]) -> bool:
    """In the other name as a word, or inside one of its words ("videostudio" holds "studio";
    "pro" abbreviates "professional")."""
    return word in other or any(
        (len(word) >= 4 and word in o)
        or (len(o) >= 4 and o in word)
        or (len(word) >= 3 and o.startswith(word))
        or (len(o) >= 3 and word.startswith(o))
        for o in other
    )


def same_listing(a_name: str, b_name: str, a_stated: set[str], b_stated: set[str]) -> str | None:
    """Why the two names list one product, or None. ``*_stated``: the words each side's
    context states besides its own name (its maker, say); the extra words of the longer
    name must be stated by the other side, or be words any listing adds."""
    a, b = listing(a_name), listing(b_name)
    if identifiers_conflict(a, b):
        return None
    a_words = [w for w in a.words if w not in SELLER_WORDS]
    b_words = [w for w in b.words if w not in SELLER_WORDS]
    if not a_words or not b_words:
        return None
    (short, short_stated), (long, _) = sorted(((a_words, a_stated), (b_words, b_stated)), key=lambda x: len(x[0]))
    if not all(_found(w, long) for w in short):
        return None
    extra = [w for w in long if not _found(w, short)]
    if any(w not in short_stated for w in extra):
        return None
    if (a.versions and a.versions == b.versions) or a.codes & b.codes:
        shown = sorted(a.versions) if a.versions == b.versions and a.versions else sorted(a.codes & b.codes)
        return f"identifiers agree ({', '.join(shown)}) and the names differ only by {' '.join(extra) or 'spelling'}"
    if a.versions or b.versions or len(short) < 2:
        return None  # a version on one side only: which one the other is, nobody says
    if extra:
        return f"the names differ only by what the other's context states ({' '.join(extra)})"
    if a.codes or b.codes:
        return "the names agree but for a stock code"
    if a.words != b.words:
        return "the names agree but for words any listing adds (platform, medium)"
    return None
