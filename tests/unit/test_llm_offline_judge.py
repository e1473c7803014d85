"""Offline stage-2 judgment: the same real-world entity, a different but related one, or a
different one with nothing a text connects them by?"""

from __future__ import annotations

import pytest

from graphwiki_assets.core.llm.calls import EntityView as E
from graphwiki_assets.core.llm.calls import JudgePair, JudgeRequest
from graphwiki_assets.core.llm.offline.backend import OfflineLLM


def verdict(a: E, b: E):
    resp = OfflineLLM().judge(JudgeRequest(pairs=[JudgePair(pair_id="p", mention=a, candidate=b)]))
    (v,) = resp.verdicts
    return v


SAME = [
    (E(name="NYC"), E(name="New York City")),  # initials
    (E(name="GDS"), E(name="Graph Data Science")),
    (E(name="NASA"), E(name="National Aeronautics and Space Administration")),  # stopword skipped
    (E(name="MoMA"), E(name="Museum of Modern Art")),  # stopword kept
    (E(name="JSON"), E(name="JavaScript Object Notation")),  # CamelCase word
    (E(name="K8s"), E(name="Kubernetes")),  # numeronym
    (E(name="U.S."), E(name="United States")),
    (E(name="CQL"), E(name="Cypher", aliases=["CQL"])),  # stated alias
    (E(name="the Beatles"), E(name="Beatles")),  # article
    (E(name="Harborline Networks"), E(name="harborline-networks")),  # case and punctuation
    (E(name="Vector Indexes"), E(name="vector index")),  # plural
    (E(name="Big Apple", context="Big Apple is a nickname for New York City."), E(name="New York City")),
    (E(name="Cypher", context="Cypher, also known as CQL, is declarative."), E(name="CQL")),
    (E(name="CQL", context="CQL (Cypher Query Language) queries graphs."), E(name="Cypher")),  # expansion in context
    (E(name="Carl Rogers"), E(name="Carl Ransom Rogers")),  # middle name
    (E(name="G. Stanley Hall"), E(name="Granville Stanley Hall")),  # initial
    (E(name="Harborline Inc."), E(name="Harborline")),  # corporate suffix only
    (
        E(name="Tchaikovsky", context="Russian composer of Swan Lake."),
        E(name="Tchaikowsky", context="He composed Swan Lake."),
    ),
    (E(name="Mongo"), E(name="MongoDB")),  # a one-word name without its technical suffix
    (
        E(name="Postgres", context="Postgres stores rows in heap files."),
        E(name="PostgreSQL", context="PostgreSQL stores tables in heap files."),
    ),
    # listings of one product: identifiers agree, the rest is the maker or the platform
    (E(name="Atlas Mapper v4.0", context="maker: Korvo"), E(name="Korvo Atlas Mapper 4 (Mac)")),
    (E(name="atlasmapper 4 deluxe"), E(name="atlas mapper 4 deluxe")),
    (E(name="Atlas Mapper Deluxe", context="maker: Korvo"), E(name="Korvo Atlas Mapper Deluxe [DVD]")),
    (E(name="Atlas Mapper Deluxe"), E(name="Atlas Mapper Deluxe (Q7731XB2)")),  # a stock code
]

NOT_SAME = [
    (E(name="Harborline"), E(name="Harborline Cloud")),  # name plus extra words
    (E(name="Neo4j"), E(name="Neo4j GDS")),
    (E(name="Java"), E(name="JavaScript")),
    (E(name="AWS"), E(name="Azure")),
    (E(name="Windows 10"), E(name="Windows 11")),  # numbers differ
    (E(name="Mercury", type="Planet"), E(name="Mercury", type="Element")),  # types clearly differ
    (E(name="Jordan", type="Country"), E(name="Jordan", type="Basketball player")),
    (
        E(name="Mercury", context="Mercury is the smallest planet."),
        E(name="Mercury", context="Mercury is a chemical element."),
    ),
    (
        E(name="Harborline Cloud", context="Harborline Cloud is a managed platform offered by Harborline."),
        E(name="Harborline"),
    ),
    (E(name="Vexa", context="Vexa is a product of Kortel."), E(name="Kortel")),
    (E(name="QDX", context="QDX is not to be confused with QDR."), E(name="QDR")),
    (E(name="Austria"), E(name="Australia")),
    (E(name="Drenmark"), E(name="Solvane")),  # nothing in common: never merge by default
    (E(name="Tensor"), E(name="TensorFlow")),
    (
        E(name="Postgres", context="Postgres stores rows in heap files."),
        E(name="PostgreSQL Conference", context="A yearly meeting."),
    ),
    (E(name="Atlas Mapper 3"), E(name="Atlas Mapper 4")),  # versions differ
    (E(name="Korvo Atlas Mapper 4 [Mac]"), E(name="Korvo Atlas Mapper 4 upgrade for Mac")),  # not a person's name
    (E(name="Atlas Mapper", context="maker: Korvo"), E(name="Atlas Mapper Cloud")),  # an extra word nobody states
    (
        E(name="Talvo", context="Talvo compiles to bytecode for a small virtual machine and ships a package manager."),
        E(name="Talvo", context="Talvo floods the lowland farms each spring before it reaches the delta."),
    ),
]


@pytest.mark.parametrize("a,b", SAME, ids=[f"{a.name}~{b.name}" for a, b in SAME])
def test_same(a, b):
    v = verdict(a, b)
    assert v.same, v.reason
    assert verdict(b, a).same  # symmetric


@pytest.mark.parametrize("a,b", NOT_SAME, ids=[f"{a.name}~{b.name}" for a, b in NOT_SAME])
def test_not_same(a, b):
    v = verdict(a, b)
    assert not v.same, v.reason
    assert not verdict(b, a).same


# Not the same; RELATED when a text connects them, DIFFERENT when none does.
RELATED = [
    (E(name="Harborline"), E(name="Harborline Cloud")),  # one name is the other plus words
    (E(name="Vexa", context="Vexa is a product of Kortel."), E(name="Kortel")),
    (
        E(name="Tillmoor Bridge", context="Tillmoor Bridge crosses the Auden river."),
        E(name="Auden", type="River", context="The Auden flows north."),
    ),  # the context names the other
    (
        E(name="Marrow", type="Language", context="Marrow is the job language of Pellstone."),
        E(name="Pellstone", type="Software", context="Pellstone runs streaming jobs."),
    ),  # types differ, yet connected
]
DIFFERENT = [
    (E(name="Drenmark"), E(name="Solvane")),
    (E(name="AWS"), E(name="Azure")),  # the same kind of thing is not a connection
    (E(name="QDX", context="QDX is not to be confused with QDR."), E(name="QDR")),  # named only to tell apart
    (
        E(
            name="Orrin",
            type="River",
            context="Orrin drains the northern moor, floods each spring and reaches the bay.",
        ),
        E(
            name="Orrin",
            type="Software",
            context="Orrin schedules batch jobs on a cluster, retries failed tasks, keeps logs.",
        ),
    ),
]


@pytest.mark.parametrize("a,b", RELATED, ids=[f"{a.name}~{b.name}" for a, b in RELATED])
def test_related(a, b):
    assert verdict(a, b).verdict == "RELATED" == verdict(b, a).verdict, verdict(a, b).reason


@pytest.mark.parametrize("a,b", DIFFERENT, ids=[f"{a.name}~{b.name}" for a, b in DIFFERENT])
def test_different(a, b):
    assert verdict(a, b).verdict == "DIFFERENT" == verdict(b, a).verdict, verdict(a, b).reason


def test_every_verdict_has_a_reason_and_a_bounded_confidence():
    pairs = SAME + NOT_SAME
    req = JudgeRequest(pairs=[JudgePair(pair_id=str(i), mention=a, candidate=b) for i, (a, b) in enumerate(pairs)])
    resp = OfflineLLM().judge(req)
    assert [v.pair_id for v in resp.verdicts] == [str(i) for i in range(len(pairs))]
    assert all(v.reason and 0.0 <= v.confidence <= 1.0 for v in resp.verdicts)
    assert resp.backend.startswith("offline-")
