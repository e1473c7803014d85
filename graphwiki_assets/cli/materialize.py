"""`graphwiki materialize` — run the Dagster ingest job over every source file, then lint.

The sources go through the job in runs of up to MAX_PARTITIONS_PER_RUN partitions, as a
backfill or the sensor would launch them; the runs are recorded in the Dagster instance
(DAGSTER_HOME), so they show in the UI exactly as if they had been launched from it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from graphwiki_assets.cli.output import add_common, emit


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_common(sub.add_parser("materialize", help="run the Dagster ingest job on the sources folder"))
    parser.add_argument(
        "--sources", type=Path, help="folder of sources (default: GRAPHWIKI_SOURCES_DIR or data/sources)"
    )
    parser.add_argument("--no-lint", action="store_true", help="skip the lint report")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import dagster as dg

    from graphwiki_assets.core.llm.client import backend_label
    from graphwiki_assets.core.settings import Settings
    from graphwiki_assets.core.sources import discover, partition_key
    from graphwiki_assets.defs.ingest.partitions import SOURCES
    from graphwiki_assets.defs.ingest.sensors import RANGE_END, RANGE_START, ranges, run_tags

    if args.sources:
        os.environ["GRAPHWIKI_SOURCES_DIR"] = str(args.sources.resolve())
    settings = Settings.from_env()
    from graphwiki_assets.definitions import defs as code_location

    defs = code_location()  # the code location the UI loads, with the sources folder set above
    folder = settings.sources_dir
    keys = [partition_key(p, folder) for p in discover(folder)]
    if not keys:
        print(f"graphwiki materialize: no sources in {folder}", file=sys.stderr)
        return 2
    if os.environ.get("DAGSTER_HOME"):
        Path(os.environ["DAGSTER_HOME"]).mkdir(parents=True, exist_ok=True)
        instance = dg.DagsterInstance.get()
    else:
        instance = dg.DagsterInstance.ephemeral()
    known = set(instance.get_dynamic_partitions(SOURCES))
    instance.add_dynamic_partitions(SOURCES, [k for k in keys if k not in known])
    ordered = instance.get_dynamic_partitions(SOURCES)
    job = defs.resolve_job_def("ingest_sources")
    results = []
    for first, last, count in ranges(list(ordered), set(keys)):
        result = job.execute_in_process(
            instance=instance,
            raise_on_error=False,
            tags={
                RANGE_START: first,
                RANGE_END: last,
                **run_tags(count, backend_label(settings.llm), settings.ingest_batch),
            },
        )
        results.append(
            {"first": first, "last": last, "sources": count, "success": result.success, "run_id": result.run_id}
        )
        if not args.json:
            print(f"  {'ok    ' if result.success else 'FAILED'} {count} source(s): {first} .. {last}", file=sys.stderr)
    lint = None
    if not args.no_lint:
        lint = defs.resolve_job_def("lint_graph").execute_in_process(instance=instance, raise_on_error=False).success
    failed = [r for r in results if not r["success"]]
    emit(
        args,
        {"runs": results, "sources": len(keys), "failed_runs": len(failed), "lint_ok": lint},
        f"{len(keys)} sources in {len(results)} run(s), {len(failed)} failed"
        + (f", lint ok={lint}" if lint is not None else ""),
    )
    return 1 if failed else 0
