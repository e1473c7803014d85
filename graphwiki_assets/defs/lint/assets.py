"""The lint report asset: the whole graph checked after ingest, and on a daily schedule."""

from pathlib import Path

import dagster as dg

from graphwiki_assets.core.lint.checks import CHECKS
from graphwiki_assets.core.lint.judgments import SAMPLE_SEED, SAMPLE_SIZE
from graphwiki_assets.core.lint.report import LintConfig, run_lint
from graphwiki_assets.core.review.impact import flag_file_drift
from graphwiki_assets.defs.audit import run_actor
from graphwiki_assets.defs.automation import AFTER_INGEST
from graphwiki_assets.defs.lint.metadata import check_result, report_metadata
from graphwiki_assets.defs.resources import GraphwikiConfig, Neo4jResource

GROUP = "lint"


class LintRunConfig(dg.Config):
    stale_days: int | None = None  # None: the schema config's staleness_days
    review_days: int = 30
    hub_limit: int | None = None  # None: the schema config's hub_size
    sample_size: int = SAMPLE_SIZE  # judgments to spot-check, stratified by verdict
    sample_seed: int = SAMPLE_SEED
    max_orphan_rate: float = 0.05
    flag_drift: bool = False  # also flag needs_review on what derives from a changed file


@dg.asset(
    group_name=GROUP,
    deps=["claim_links"],
    kinds={"neo4j"},
    automation_condition=AFTER_INGEST,
    check_specs=[dg.AssetCheckSpec(name, asset="lint_report", description=text) for name, (_, text) in CHECKS.items()],
    description="Graph health: orphans, disputes, judgments to spot-check, staleness, integrity gates, drift, hubs.",
)
def lint_report(
    context: dg.AssetExecutionContext, config: LintRunConfig, neo4j: Neo4jResource, graphwiki: GraphwikiConfig
) -> dg.MaterializeResult:
    sources_dir = Path(graphwiki.sources_dir)
    settings = LintConfig.with_thresholds(
        graphwiki.load_schema().config.thresholds,
        stale_days=config.stale_days,
        hub_limit=config.hub_limit,
        review_days=config.review_days,
        sample_size=config.sample_size,
        sample_seed=config.sample_seed,
        max_orphan_rate=config.max_orphan_rate,
        sources_dir=sources_dir,
    )
    with neo4j.open() as store:
        report = run_lint(store, config=settings, actor=run_actor(context))
        if config.flag_drift:
            flagged = flag_file_drift(store, sources_dir, report.generated_at)
            context.log.info(f"flagged the dependents of {len(flagged)} changed source file(s)")
    return dg.MaterializeResult(
        metadata=report_metadata(report), check_results=[check_result(c) for c in report.checks]
    )
