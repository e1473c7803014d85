"""Stage: two-stage entity resolution for a batch of sources, planned in memory (the
commit writes it later, in one transaction).

Sources of a batch are resolved in order, as if each earlier one had been committed
already: what an earlier source of the batch would create is a candidate for the later
ones, exactly as the graph's own concepts are.

- Cheap passes first: a normalised name or alias that matches a node (or an earlier
  mention of the batch) with a compatible type merges without an LLM call.
- Stage 1 is a rank-based screen: the k nearest concepts above a low floor, from the
  Neo4j vector index (one query for the whole batch) and among the new concepts of
  earlier sources. A rank cut transfers across domains where one cosine threshold did not.
- Stage 2 asks the LLM whether each candidate is the same real-world entity or just
  related, in a few large calls per batch (``judging``). A candidate of a kind the
  mention can never be (a person and a city) is ruled out before any call.
- Mentions of one source are candidates for each other only with lexical evidence of
  identity: one text names one thing one way, or states the other name.

The exact passes and stage 1 are in ``screen``; the plan made of the verdicts in ``verdicts``.
"""

from __future__ import annotations

from graphwiki_assets.core.ingest.answered import Kept, judge_key
from graphwiki_assets.core.ingest.judging import judge_pairs, view
from graphwiki_assets.core.ingest.merge_decision import weighed
from graphwiki_assets.core.ingest.models import Candidates, Mention, ResolutionPlan
from graphwiki_assets.core.ingest.screen import SOURCE, Stage1Config, exact_batch_homes, exact_graph_matches, stage1
from graphwiki_assets.core.ingest.timing import StageTimes
from graphwiki_assets.core.ingest.vectors import Vectors
from graphwiki_assets.core.ingest.verdicts import TYPES_BACKEND, Pair, decide
from graphwiki_assets.core.llm.calls import NO_VERDICT, EntityView, Verdict
from graphwiki_assets.core.llm.client import LLMClient
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.keys import keys_for
from graphwiki_assets.core.text.type_names import disjoint_types

DEFAULT_STAGE1 = Stage1Config()  # frozen: one shared default is safe


def mention_contexts(candidates: Candidates, limit: int = 240) -> dict[str, str]:
    """What the judge reads about a mention: its description, then claims about it."""
    # Claims by the names they are about, in source order: a long source has thousands of
    # concepts and claims, and scanning every claim for every concept is quadratic.
    about: dict[str, list[str]] = {}
    for claim in candidates.extraction.claims:
        for name in dict.fromkeys(claim.about):
            about.setdefault(name, []).append(claim.text)
    contexts: dict[str, str] = {}
    for concept in candidates.extraction.concepts:
        parts = [concept.description] if concept.description else []
        for text in about.get(concept.name, []):
            if len(" ".join(parts)) >= limit:
                break
            parts.append(text)
        contexts[concept.name] = " ".join(parts)[:limit]
    return contexts


def identity_contexts(candidates: Candidates) -> dict[str, str]:
    """What stage 1 embeds beside a name: what the thing is (its description, else the first
    claim about it), not everything the source says about it. More text makes the vector
    more about the topic than the entity, and costs embedding time in proportion."""
    first_claim: dict[str, str] = {}
    for claim in candidates.extraction.claims:
        for name in claim.about:
            first_claim.setdefault(name, claim.text)
    return {c.name: c.description or first_claim.get(c.name, "") for c in candidates.extraction.concepts}


def build_mentions(batch: list[Candidates]) -> list[Mention]:
    mentions: list[Mention] = []
    for doc, candidates in enumerate(batch):
        contexts, identity = mention_contexts(candidates), identity_contexts(candidates)
        for c in candidates.extraction.concepts:
            mentions.append(
                Mention(
                    index=len(mentions),
                    doc=doc,
                    source_id=candidates.source_id,
                    name=c.name,
                    type=c.extracted_type or c.type or "Concept",
                    taxonomy_type=c.type or "Concept",
                    type_guessed=c.type_guessed,
                    description=c.description,
                    definition=c.definition,
                    aliases=list(c.aliases),
                    context=contexts[c.name],
                    keys=keys_for(c.name, c.aliases),
                    identity=identity[c.name],
                )
            )
    return mentions


def mention_texts(store: GraphStore, batch: list[Candidates]) -> list[str]:
    """The mention texts stage 1 will likely compare: not those an exact name already settles
    (read before the lease; a mention that needs a vector after all gets it on demand)."""
    mentions = build_mentions(batch)
    exact = exact_graph_matches(store, mentions)
    home = exact_batch_homes(mentions, exact)
    return [t for m in mentions if m.index not in exact and m.index not in home for t in m.parts]


def resolve_batch(
    store: GraphStore,
    llm: LLMClient,
    batch: list[Candidates],
    vectors: Vectors,
    config: Stage1Config = DEFAULT_STAGE1,
    times: StageTimes | None = None,
    answered: Kept[Verdict] | None = None,
) -> list[ResolutionPlan]:
    """The batch's plans. Pairs shown as a pair in ``answered`` was take its verdict without a call."""
    times = times or StageTimes()
    mentions = build_mentions(batch)
    s = stage1(store, mentions, vectors, config, times)

    pairs: list[Pair] = []
    groups: list[list[int]] = []
    ruled: dict[int, Verdict] = {}  # pairs decided by rules, no call spent
    for m in mentions:
        group = []
        for cand in s.candidates.get(m.index, []):
            if cand.kind != SOURCE and disjoint_types(m.type, cand.type):
                ruled[len(pairs)] = Verdict(
                    pair_id=f"p{len(pairs)}",
                    verdict="DIFFERENT",
                    confidence=1.0,
                    reason=f"disjoint kinds: {m.type} vs {cand.type}",
                )
            else:
                group.append(len(pairs))
            pairs.append((m, cand))
        if group:
            groups.append(group)
    asked = [i for group in groups for i in group]
    with times.stage("judge"):
        views: list[tuple[EntityView, EntityView]] = [
            (
                view(pairs[i][0].name, pairs[i][0].type, pairs[i][0].aliases, pairs[i][0].context, config.judge),
                view(pairs[i][1].name, pairs[i][1].type, pairs[i][1].aliases, pairs[i][1].summary, config.judge),
            )
            for i in asked
        ]
        position = {i: n for n, i in enumerate(asked)}
        answers = _judged(llm, views, [[position[i] for i in group] for group in groups], config, answered)
        answers = weighed(llm.label, views, [pairs[i][1].score for i in asked], answers)
    verdicts = [ruled[i] if i in ruled else answers[position[i]] for i in range(len(pairs))]
    backends = [TYPES_BACKEND if i in ruled else llm.label for i in range(len(pairs))]
    return decide(batch, mentions, s, pairs, verdicts, backends)


def _judged(
    llm: LLMClient,
    views: list[tuple[EntityView, EntityView]],
    groups: list[list[int]],
    config: Stage1Config,
    answered: Kept[Verdict] | None,
) -> list[Verdict]:
    """One verdict per pair of views: kept ones reused, the rest asked with their mentions'
    groups kept together; a pair the model gave no verdict stays apart."""
    kept = answered if answered is not None else Kept[Verdict]()

    def ask(missing: list[int]) -> list[Verdict | None]:
        at = {n: m for m, n in enumerate(missing)}
        asked_groups = [[at[n] for n in group if n in at] for group in groups]
        got = judge_pairs(llm, [views[n] for n in missing], config.judge, [g for g in asked_groups if g])
        return [None if v.reason == NO_VERDICT else v for v in got]

    found = kept.through([judge_key(*v) for v in views], ask)
    return [
        v.model_copy(update={"pair_id": f"p{n}"})
        if v is not None
        else Verdict(pair_id=f"p{n}", verdict="DIFFERENT", confidence=0.0, reason=NO_VERDICT)
        for n, v in enumerate(found)
    ]
