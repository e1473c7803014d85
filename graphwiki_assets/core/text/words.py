"""Words as every stage compares them: the words of a text, a light stem, stopwords.

Pure standard-library regex work; cheap enough to run on every paragraph of a corpus.
"""

from __future__ import annotations

import re

from graphwiki_assets.core.normal_forms import singular

STOPWORDS = frozenset(
    """a about above after again against all also although am an and any are as at be been
    before being below between both but by can could did do does doing down during each either
    else ever every few for from further had has have having he her here hers herself him himself
    his how however i if in into is it its itself just me might more most much must my myself
    neither no nor not now of off on once one only or other otherwise our ours ourselves out over
    own per same shall she should so some such than that the their theirs them themselves then
    there these they this those though through thus to too under until up upon us very via was we
    were what whatever when where whether which while who whom whose why will with within without
    would yet you your yours also its it's""".split()
)

_WORD = re.compile(r"[^\W_](?:[\w'\-./&+]*[^\W_])?")


def words(text: str) -> list[str]:
    return _WORD.findall(text)


def stem(word: str) -> str:
    """A light suffix stripper: enough to match supports/support, increased/increases."""
    w = word.lower().replace("'s", "").strip("'")
    if len(w) <= 3:
        return w
    w = singular(w)
    for suffix in ("ing", "ed"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            break
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    return w


def content_words(text: str) -> list[str]:
    """Stemmed words that carry meaning (no stopwords), in order."""
    return [stem(w) for w in words(text) if w.lower() not in STOPWORDS]
