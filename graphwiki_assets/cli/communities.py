"""`graphwiki communities` — detect the concept graph's communities and report the new ones
(the same work as the `communities` asset)."""

from __future__ import annotations

import argparse

from graphwiki_assets.cli.output import add_common, at_least, emit


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_common(
        sub.add_parser(
            "communities",
            help="Leiden communities of the concept graph, with a report for each new one",
            description="Runs Leiden (GDS) on the concept graph, stores each community with its members, and asks the "
            "LLM for a title and summary of every community not reported before. An unchanged graph costs "
            "no LLM call. Exits 1 if some reports failed (run again to ask for them).",
        )
    )
    parser.add_argument("--min-size", type=at_least(1), default=3, help="smallest community kept (default 3)")
    parser.add_argument(
        "--show", type=at_least(0), default=20, metavar="N", help="top-level communities to list (default 20)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from graphwiki_assets.cli.services import open_services
    from graphwiki_assets.core.communities.detect import CommunityConfig
    from graphwiki_assets.core.communities.refresh import list_communities, refresh_communities
    from graphwiki_assets.core.markdown import markdown_table

    with open_services() as (_, store, embedder, llm):
        result = refresh_communities(store, embedder, llm, CommunityConfig(min_size=args.min_size))
        listed = [c for c in list_communities(store) if c["top"]][: args.show]
    shown = [{"id": c["id"], "size": c["size"], "title": c["title"], "kind": c["kind"]} for c in listed]
    text = (
        f"{result.communities} communities ({result.top} top-level) over {result.covered} of {result.concepts} "
        f"concepts, {result.levels} Leiden level(s): {result.new} new, {result.kept} kept, {result.dropped} gone; "
        f"{result.reported} reported in {result.llm_calls} LLM call(s)"
        + (f"; {len(result.failed)} FAILED" if result.failed else "")
        + "\n\n"
        + markdown_table(shown, ["size", "title", "kind", "id"])
    )
    emit(args, {**result.as_dict(), "top_communities": shown}, text)
    return 1 if result.failed else 0
