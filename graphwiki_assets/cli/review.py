"""`graphwiki review`, `resolve` and `impact` — the human side of keeping the graph honest."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from graphwiki_assets.cli.output import add_common, emit, who
from graphwiki_assets.core.lint.judgments import SAMPLE_SEED, SAMPLE_SIZE
from graphwiki_assets.core.settings import Settings
from graphwiki_assets.core.store.driver import GraphStore

if TYPE_CHECKING:  # loaded only when a split needs a vector
    from graphwiki_assets.core.embeddings import Encoder


def register(sub: argparse._SubParsersAction) -> None:
    review = add_common(
        sub.add_parser("review", help="spot-check stage-2 judgments (confirm, or reject to undo the merge / split)")
    )
    review.add_argument(
        "--sample",
        type=int,
        default=SAMPLE_SIZE,
        metavar="N",
        help=f"judgments to check, stratified by verdict (default {SAMPLE_SIZE})",
    )
    review.add_argument(
        "--seed", type=int, default=SAMPLE_SEED, metavar="S", help=f"which random sample (default {SAMPLE_SEED})"
    )
    review.add_argument("--confirm", action="append", default=[], metavar="ID", help="confirm a judgment (repeatable)")
    review.add_argument("--reject", action="append", default=[], metavar="ID", help="reject a judgment (repeatable)")
    review.add_argument("--no-input", action="store_true", help="only list the sample, ask nothing")
    review.add_argument(
        "--no-embed",
        action="store_true",
        help="do not load the embedding model for a split-off node (it is then found by name only)",
    )
    _decider(review)
    review.set_defaults(handler=run_review)

    resolve = add_common(sub.add_parser("resolve", help="settle a dispute: the other claim becomes superseded"))
    resolve.add_argument("claim", help="the claim that loses")
    resolve.add_argument("--winner", required=True, metavar="CLAIM", help="the claim that wins")
    _decider(resolve)
    resolve.set_defaults(handler=run_resolve)

    impact = add_common(sub.add_parser("impact", help="what a change to a source reaches (and can flag for review)"))
    impact.add_argument("source", help="a Source id, or a path (its latest version)")
    impact.add_argument(
        "--depth", default="1", metavar="N|*", help="hops: 0 = the source only, * = unbounded (default 1)"
    )
    impact.add_argument("--flag", action="store_true", help="set needs_review on every concept and claim reached")
    impact.set_defaults(handler=run_impact)


def _decider(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--by", default=None, metavar="NAME", help="who decides (default cli:<user>)")
    parser.add_argument("--reason", default="", metavar="TEXT", help="why, recorded with the decision")


def _store() -> tuple[Settings, GraphStore]:
    settings = Settings.from_env()
    return settings, GraphStore(settings.neo4j)


class LazyEmbedder:
    """Loads the configured embedder only if a split actually needs a vector, and checks it is
    the model that made the graph's vectors before the split writes one."""

    def __init__(self, settings: Settings, store: GraphStore):
        self.settings, self.store = settings, store
        self._embedder: Encoder | None = None

    def __call__(self, text: str) -> list[float]:
        if self._embedder is None:
            from graphwiki_assets.core.encoders import build_encoder
            from graphwiki_assets.core.store.vector_model import check_encoder

            embedder = build_encoder(self.settings)
            check_encoder(self.store, embedder)
            self._embedder = embedder
        return self._embedder.encode_one(text)


def describe(j) -> str:
    arrow = "merged into" if j.verdict == "SAME" else "kept apart from"
    return (
        f"{j.id}  [{j.verdict}, {j.backend}, score {j.score}]\n"
        f"  '{j.mention}' was {arrow} '{j.candidate_name}' ({j.candidate_id})\n"
        f"  context: {(j.mention_context or '')[:200]}\n  reason:  {j.reason}\n  source:  {j.source_path or j.source_id}"
    )


def run_review(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.lint.judgments import sample_judgments
    from graphwiki_assets.core.review.decide import confirm, reject

    settings, store = _store()
    by, embed = args.by or who(), None if args.no_embed else LazyEmbedder(settings, store)
    decide = {
        "confirm": lambda jid: confirm(store, jid, by=by, reason=args.reason),
        "reject": lambda jid: reject(store, jid, by=by, reason=args.reason, embed=embed),
    }
    with store:
        if args.confirm or args.reject:
            outcomes = [decide["confirm"](j).as_dict() for j in args.confirm]
            outcomes += [decide["reject"](j).as_dict() for j in args.reject]
            emit(args, outcomes, "\n".join(_outcome_line(o) for o in outcomes))
            return 0
        drawn = sample_judgments(store, args.sample, args.seed)
        sample = drawn.judgments
        if args.no_input or args.json or not sample:
            listed = "\n\n".join(describe(j) for j in sample)
            emit(
                args,
                [j.as_row() for j in sample],
                f"{drawn.describe()}\n\n{listed}" if sample else "No unreviewed judgments.",
            )
            return 0
        print(drawn.describe())
        return _interactive(sample, decide)


def _interactive(sample, decide) -> int:
    done = 0
    for n, j in enumerate(sample, 1):
        print(f"\n({n}/{len(sample)}) {describe(j)}")
        answer = _ask("[c]onfirm, [r]eject, [s]kip, [q]uit? ")
        if answer in ("q", None):
            break
        if answer in ("c", "r"):
            print("  " + _outcome_line(decide["confirm" if answer == "c" else "reject"](j.id).as_dict()))
            done += 1
    print(f"\n{done} judgment(s) reviewed.")
    return 0


def _ask(prompt: str) -> str | None:
    while True:
        try:
            answer = input(prompt).strip().lower()[:1]
        except EOFError:
            return None
        if answer in ("c", "r", "s", "q"):
            return answer
        print("  please answer c, r, s or q", file=sys.stderr)


def _outcome_line(o: dict) -> str:
    where = f" -> {o['concept_id']}" if o["action"] in ("split", "merged") else ""
    return f"{o['judgment_id']}: {o['review_verdict']} ({o['action']}{where})"


def run_resolve(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.review.resolve import resolve_dispute

    _, store = _store()
    with store:
        result = resolve_dispute(store, args.claim, winner=args.winner, by=args.by or who(), reason=args.reason)
    emit(
        args,
        result.as_dict(),
        f"{result.loser} is superseded by {result.winner} (now {result.winner_status}); "
        f"decided by {result.decided_by} at {result.decided_at}",
    )
    return 0


def run_impact(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.review.impact import impact, parse_depth

    depth = parse_depth(args.depth)  # refuse a bad depth before connecting
    _, store = _store()
    with store:
        result = impact(store, args.source, depth=depth, flag=args.flag)
    lines = [f"{result.source_id} ({result.path}), depth {args.depth}: {len(result.nodes)} node(s) reached"]
    lines += [f"  {n.distance}  {n.label:8} {n.id}  {(n.name or '')[:80]}  [{n.status}]" for n in result.nodes]
    if args.flag:
        lines.append(f"flagged needs_review on {len(result.flagged)} node(s)")
    emit(args, result.as_dict(), "\n".join(lines))
    return 0
