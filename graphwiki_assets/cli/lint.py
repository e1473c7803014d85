"""`graphwiki lint` — the lint report on demand (the same report as the `lint_report` asset)."""

from __future__ import annotations

import argparse

from graphwiki_assets.cli.output import add_common, emit, who
from graphwiki_assets.core.lint.judgments import SAMPLE_SEED, SAMPLE_SIZE
from graphwiki_assets.core.settings import Settings
from graphwiki_assets.core.store.driver import GraphStore

EXIT_ERRORS = 2  # an error-level finding (a broken gate), so CI can fail on it


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_common(
        sub.add_parser(
            "lint",
            help="check the graph's health (exit 2 when a hard gate fails)",
            description="Orphans, open disputes, judgments to spot-check, staleness, dangling references, provenance, "
            "disputed/CONTRADICTS consistency, SHA256 drift, oversized hubs, overdue reviews, missing "
            "properties. Prints markdown, or JSON with --json; exits 2 if any error-level check fails.",
        )
    )
    parser.add_argument(
        "--stale-days",
        type=int,
        default=None,
        metavar="N",
        help="sources/concepts not touched by a re-ingest for N days are stale "
        "(default: the schema config's staleness_days)",
    )
    parser.add_argument(
        "--hub-limit",
        type=int,
        default=None,
        metavar="N",
        help="concepts with more relationships are oversized hubs (default: the schema config's hub_size)",
    )
    parser.add_argument(
        "--review-days",
        type=int,
        default=30,
        metavar="N",
        help="needs_review older than N days is overdue (default 30)",
    )
    parser.add_argument(
        "--sample",
        type=int,
        default=SAMPLE_SIZE,
        metavar="N",
        help=f"unreviewed judgments to sample for a spot-check, stratified by verdict (default {SAMPLE_SIZE})",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=SAMPLE_SEED,
        metavar="S",
        help=f"the sample's random seed: the same seed draws the same sample (default {SAMPLE_SEED})",
    )
    parser.add_argument(
        "--flag-drift",
        action="store_true",
        help="also flag needs_review on what derives from a source file changed on disk",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.config import load_config
    from graphwiki_assets.core.lint.report import LintConfig, run_lint
    from graphwiki_assets.core.review.impact import flag_file_drift

    settings = Settings.from_env()
    config = LintConfig.with_thresholds(
        load_config(settings.config_path, settings.home).config.thresholds,
        stale_days=args.stale_days,
        hub_limit=args.hub_limit,
        review_days=args.review_days,
        sample_size=args.sample,
        sample_seed=args.seed,
        sources_dir=settings.sources_dir,
    )
    with GraphStore(settings.neo4j) as store:
        report = run_lint(store, config=config, actor=who())
        flagged = flag_file_drift(store, settings.sources_dir, report.generated_at) if args.flag_drift else {}
    data = report.as_dict()
    text = report.markdown()
    if args.flag_drift:
        data["drift_flagged"] = flagged
        text += f"\n\nFlagged for review: {sum(map(len, flagged.values()))} node(s) of {len(flagged)} changed file(s)."
    emit(args, data, text)
    return EXIT_ERRORS if report.severity == "error" else 0
