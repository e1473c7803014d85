"""The values a claim states (dates, counts, amounts with units) as intervals.

Found on the parse (the pipeline's entities, parts of speech and lemmas) and compared as
intervals, because a written number says how precise it is: "4,200" is exact to the
hundred, "18,510" to the ten; "about" widens a value by a tenth; units are converted with
pint ("1,280 metres" is "4,200 feet"). A date stands for the days it covers (a day, a
month, a season, a year), so "in July 1969" and "on 20 July 1969" overlap. A number right
after a name is part of the name ("Apollo 11", "Kubernetes 1.0"): it says which thing, not
how much. ``statements`` decides which values of two claims are the same statement's.
"""

from __future__ import annotations

import calendar
import datetime as dt
import functools
import re
from dataclasses import dataclass
from typing import Any

# Words that make a value approximate (widened by APPROXIMATE) or a bound, kept out of the frame.
APPROXIMATE_WORDS = frozenset({"about", "around", "approximately", "roughly", "nearly", "almost", "circa", "some"})
_LOWER_BOUND = ("more than", "over", "at least", "above")
_UPPER_BOUND = ("less than", "under", "up to", "at most", "below", "fewer than")
APPROXIMATE = 0.10  # "about 300" admits 270-330: rounding to a round figure, stated as such
_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m} | {
    m.lower(): i for i, m in enumerate(calendar.month_abbr) if m
}
_SEASONS = {"spring": (3, 5), "summer": (6, 8), "autumn": (9, 11), "fall": (9, 11), "winter": (12, 14)}
_SMALL = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
_SMALL += "seventeen eighteen nineteen"
_WORDS = {w: i for i, w in enumerate(_SMALL.split())}
_WORDS |= {w: 10 * (i + 2) for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split())}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
NUMBER_WORDS = frozenset(_WORDS) | frozenset(_SCALES)  # the words read as numbers


@dataclass(frozen=True)
class Slot:
    kind: str  # "date", "amount", or "as of" (the date a statement was true at)
    low: float  # the interval [low, high) the value stands for: days since year 1 for dates, root units for amounts
    high: float
    unit: str  # the root unit of an amount ("" for a count), "" for dates
    bound: str  # "", "lower" or "upper"
    text: str  # as written

    def comparable(self, other: Slot) -> bool:
        return self.kind == other.kind and self.unit == other.unit and self.bound == other.bound

    def overlaps(self, other: Slot) -> bool:
        return self.low < other.high and other.low < self.high  # half-open: 3 and 4 only touch


@dataclass(frozen=True)
class Found:
    """A value slot of a parsed claim: the slot, the token it hangs from, the tokens it takes."""

    slot: Slot
    root: int
    taken: frozenset[int]


def value_slots(doc: Any, name_words: frozenset[str]) -> list[Found]:
    """The dates and amounts of a parsed claim, in order; ``name_words`` (the concept's
    names, lowercased) mark a number right after them as part of a name."""
    found: list[Found] = []
    used: set[int] = set()
    for ent in doc.ents:
        if ent.label_ == "DATE":
            span = _date_span(ent.text)
            if span is not None:
                slot = _qualified(doc, ent.start, Slot("date", *span, "", "", ent.text))
                found.append(Found(slot, ent.root.i, frozenset(range(ent.start, ent.end))))
                used |= set(range(ent.start, ent.end))
    for tok in doc:
        if tok.i in used or not _is_value(tok, name_words):
            continue
        amount, taken = _amount(doc, tok.i)
        if amount is None:
            continue
        found.append(Found(_qualified(doc, tok.i, amount), tok.i, frozenset(taken)))
        used |= taken
    return sorted(found, key=lambda f: min(f.taken))


def _is_value(tok: Any, name_words: frozenset[str]) -> bool:
    """A number that says how much or which value ("port 7687"), not which thing: not
    right after a proper name or the concept's own name ("Apollo 11", "Kubernetes 1.0")."""
    if not tok.like_num or _number(tok.text) is None:
        return False
    before = tok.doc[tok.i - 1] if tok.i > 0 else None
    return before is None or not (before.pos_ == "PROPN" or before.lower_ in name_words)


def _amount(doc: Any, i: int) -> tuple[Slot | None, set[int]]:
    """The number at ``i`` with its unit when the next words name one ("metres", "degrees
    Celsius", "gigabits per second"), as an interval in the unit's root units."""
    tok = doc[i]
    value = _number(tok.text)
    if value is None:
        return None, set()
    half = _resolution(tok.text) / 2
    low, high, unit, taken = value - half, value + half, "", {i}
    found = _unit(doc, i + 1)
    if found is not None:
        name, end = found
        converted = _in_root_units(low, high, name)
        if converted is None:
            return None, set()
        low, high, unit = converted
        taken |= set(range(i + 1, end))
    elif 1000 <= value <= 2100 and value.is_integer() and "," not in tok.text and not _counts(doc, i):
        year = int(value)  # a bare year ("signed in 1648"), not a count ("1800 people")
        return Slot("date", _day(year, 1, 1), _day(year + 1, 1, 1), "", "", tok.text), taken
    text = doc[i : max(taken) + 1].text
    return Slot("amount", low, high, unit, "", text), taken


def _counts(doc: Any, i: int) -> bool:
    return i + 1 < len(doc) and doc[i + 1].pos_ == "NOUN"  # "1800 people", not "in 2022 Tovik Works"


def _unit(doc: Any, start: int) -> tuple[str, int] | None:
    """The unit the words from ``start`` name, as pint reads it, and where it ends."""
    nouns = [t for t in doc[start : start + 4]]
    if not nouns or nouns[0].pos_ not in ("NOUN", "PROPN", "SYM", "X") and nouns[0].text != "%":
        return None
    first = nouns[0].lemma_.lower() if nouns[0].text != "%" else "percent"
    candidates: list[tuple[str, int]] = []
    if len(nouns) >= 2 and nouns[1].pos_ in ("NOUN", "PROPN"):
        candidates.append((f"{first}_{nouns[1].text}", start + 2))  # "degree Celsius" (pint's spelling)
        candidates.append((f"{first}_{nouns[1].text.lower()}", start + 2))
    if len(nouns) >= 3 and nouns[1].lower_ == "per" and nouns[2].pos_ in ("NOUN", "PROPN"):
        candidates.append((f"{first} / {nouns[2].lemma_.lower()}", start + 3))  # "gigabits per second"
    candidates.append((first, start + 1))
    for name, end in candidates:
        if _known_unit(name):
            return name, end
    return None


@functools.lru_cache(maxsize=1024)
def _known_unit(name: str) -> bool:
    registry = _registry()
    try:
        registry.Quantity(1, name)
    except Exception:  # pint raises several kinds for a word that is no unit
        return False
    return True


def _in_root_units(low: float, high: float, name: str) -> tuple[float, float, str] | None:
    registry = _registry()
    try:
        lo = registry.Quantity(low, name).to_root_units()
        hi = registry.Quantity(high, name).to_root_units()
    except Exception:
        return None
    return float(lo.magnitude), float(hi.magnitude), str(lo.units)


@functools.cache
def _registry() -> Any:
    import pint

    return pint.UnitRegistry(autoconvert_offset_to_baseunit=True)


def _qualified(doc: Any, start: int, slot: Slot) -> Slot:
    """The slot widened by an approximation word before it, or marked as a bound."""
    before = " ".join(t.lower_ for t in doc[max(0, start - 2) : start])
    if slot.kind == "date" and before in ("as of", "as at"):  # when it was true, not what is stated
        return Slot("as of", slot.low, slot.high, slot.unit, "", slot.text)
    if any(before.endswith(w) for w in _LOWER_BOUND):
        return Slot(slot.kind, slot.low, slot.high, slot.unit, "lower", slot.text)
    if any(before.endswith(w) for w in _UPPER_BOUND):
        return Slot(slot.kind, slot.low, slot.high, slot.unit, "upper", slot.text)
    if start > 0 and doc[start - 1].lower_ in APPROXIMATE_WORDS and slot.kind == "amount":
        width = APPROXIMATE * max(abs(slot.low), abs(slot.high))
        return Slot(slot.kind, slot.low - width, slot.high + width, slot.unit, "", slot.text)
    return slot


def _number(text: str) -> float | None:
    cleaned = text.replace(",", "").replace("\u202f", "")
    try:
        return float(cleaned)
    except ValueError:
        pass
    word = text.lower()
    if word in _WORDS:
        return float(_WORDS[word])
    return float(_SCALES[word]) if word in _SCALES else None


def _resolution(text: str) -> float:
    """The step of the last digit a number states: 1 for "64", 0.001 for "42.195". An
    integer's trailing zeros may be rounding ("4,200 feet" for 4,199.5), but a figure is read
    as having at least two significant digits: "1,500" is 1,450-1,550, "30" is 29.5-30.5."""
    digits = text.replace(",", "")
    if not digits[:1].isdigit():
        return 1.0  # a number word is exact
    if "." in digits:
        return 10.0 ** -len(digits.split(".", 1)[1])
    zeros = len(digits) - len(digits.rstrip("0"))
    return 10.0 ** max(0, min(zeros, len(digits) - 2))


def _day(year: int, month: int, day: int) -> float:
    month_over, month = divmod(month - 1, 12)
    return float(dt.date(year + month_over, month + 1, day).toordinal())


def _date_span(text: str) -> tuple[float, float] | None:
    """The first day a written date stands for and the day after its last: a year, a month, a season or a
    day; None when it names no year ("last week", "Monday")."""
    words = re.findall(r"[A-Za-z]+|\d+", text)
    years = [int(w) for w in words if w.isdigit() and len(w) == 4 and 1000 <= int(w) <= 2100]
    if len(years) != 1:
        return None
    year = years[0]
    lowered = [w.lower() for w in words]
    months = [_MONTHS[w] for w in lowered if w in _MONTHS and len(w) > 2]
    seasons = [_SEASONS[w] for w in lowered if w in _SEASONS]
    days = [int(w) for w in words if w.isdigit() and len(w) <= 2 and 1 <= int(w) <= 31]
    if len(months) == 1:
        month = months[0]
        if len(days) == 1:
            return _day(year, month, days[0]), _day(year, month, days[0]) + 1
        return _day(year, month, 1), _day(year, month + 1, 1)
    if len(seasons) == 1 and not months:
        first, last = seasons[0]
        return _day(year, first, 1), _day(year, last + 1, 1)
    if months or seasons or days:
        return None  # a range of months, or a day without its month: not read here
    return _day(year, 1, 1), _day(year + 1, 1, 1)
