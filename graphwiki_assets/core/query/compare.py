"""Comparison of two entities: shared and divergent neighbours, and each one's claims."""

from __future__ import annotations

from graphwiki_assets.core.query import cypher
from graphwiki_assets.core.query.models import QueryOptions, Retrieval
from graphwiki_assets.core.query.subgraph import claims_about, claims_linking
from graphwiki_assets.core.store.driver import Graph


def compare(store: Graph, question: list[float], a: str, b: str, opts: QueryOptions) -> Retrieval:
    neighbours = {r["id"]: r["neighbours"] for r in store.query(cypher.NEIGHBOURS, ids=[a, b])}
    na, nb = neighbours.get(a, []), neighbours.get(b, [])
    shared = [n for n in na if n in nb]
    only_a = [n for n in na if n not in nb and n != b]
    only_b = [n for n in nb if n not in na and n != a]
    pairs = [(a, b)] + [(x, n) for n in shared[: opts.per_concept] for x in (a, b)]
    evidence = [r["id"] for r in claims_linking(store, question, pairs, per_pair=1)]
    own = claims_about(store, question, [(a, 0, opts.per_concept), (b, 0, opts.per_concept)])
    return Retrieval(
        technique="neighbourhood comparison",
        concepts=[a, b] + shared + only_a[: opts.k] + only_b[: opts.k],
        claims=evidence + own,
        summaries=[a, b],
        details={"direct": b in na, "shared": shared, "only_first": only_a[: opts.k], "only_second": only_b[: opts.k]},
        explanation=f"{len(shared)} shared neighbour(s), {len(only_a)} only on the first, {len(only_b)} only on the second"
        + ("; directly related" if b in na else ""),
    )
