"""Lexical overlap between mentions of one source, answered from an index: the same answers
as comparing every pair, in time that grows with the matches, not with the square."""

from __future__ import annotations

import random
import time

from graphwiki_assets.core.ingest.models import Mention
from graphwiki_assets.core.ingest.overlap import earlier_overlaps, names_overlap
from graphwiki_assets.core.store.keys import keys_for


def _mention(index: int, doc: int, name: str, aliases: list[str] | None = None) -> Mention:
    return Mention(
        index=index,
        doc=doc,
        source_id=f"s{doc}",
        name=name,
        type="Concept",
        description="",
        aliases=aliases or [],
        context="",
        keys=keys_for(name, aliases or []),
        identity="",
    )


def test_shared_words_and_initials_are_overlap_and_other_names_are_not():
    assert names_overlap(_mention(0, 0, "Quill Reactor"), _mention(1, 0, "the reactor"))
    assert names_overlap(_mention(0, 0, "Northwind Lattice Group"), _mention(1, 0, "NLG"))
    assert names_overlap(_mention(0, 0, "NLG"), _mention(1, 0, "Northwind Lattice Group"))
    assert not names_overlap(_mention(0, 0, "Quill Reactor"), _mention(1, 0, "Harbor Museum"))


def test_the_index_finds_exactly_the_earlier_overlapping_mentions_of_the_same_source():
    rng = random.Random(7)
    words = ["amber", "basalt", "cobalt", "delta", "ember", "fjord", "garnet", "harbor"]
    mentions = []
    for i in range(300):
        doc = i // 100
        if rng.random() < 0.2:
            name = "".join(rng.choice(words)[0] for _ in range(rng.randint(2, 3))).upper()
        else:
            name = " ".join(rng.choice(words) for _ in range(rng.randint(1, 3))).title()
        mentions.append(_mention(i, doc, name))
    found = earlier_overlaps(mentions)
    for m in mentions:
        pairwise = {o.index for o in mentions[: m.index] if o.doc == m.doc and names_overlap(m, o)}
        assert found[m.index] == pairwise


def test_thousands_of_mentions_of_one_source_are_looked_up_not_compared_pairwise():
    mentions = [_mention(i, 0, f"Entity{i} Unit{i % 50}") for i in range(5000)]
    started = time.perf_counter()
    found = earlier_overlaps(mentions)
    assert time.perf_counter() - started < 5.0  # comparing every pair takes minutes here
    assert found[4999] == {i for i in range(4999) if i % 50 == 4999 % 50}
