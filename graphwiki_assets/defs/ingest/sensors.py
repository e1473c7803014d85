"""A sensor that adds partitions for new files and requests runs for new or changed ones."""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg

from graphwiki_assets.core.ingest.files import discover, partition_key
from graphwiki_assets.defs.ingest.jobs import ingest_job
from graphwiki_assets.defs.ingest.partitions import source_partitions
from graphwiki_assets.defs.resources import GraphwikiConfig


def _fingerprint(path: Path) -> str:
    # Size and mtime are enough to notice a change; SHA256 inside the run decides for real.
    stat = path.stat()
    return f"{stat.st_size}:{stat.st_mtime_ns}"


@dg.sensor(job=ingest_job, minimum_interval_seconds=30, default_status=dg.DefaultSensorStatus.RUNNING,
           description="Watches the sources folder; new or changed files become partitions and runs.")
def sources_sensor(context: dg.SensorEvaluationContext, graphwiki: GraphwikiConfig) -> dg.SensorResult:
    folder = Path(graphwiki.sources_dir)
    seen: dict[str, str] = json.loads(context.cursor) if context.cursor else {}
    current: dict[str, str] = {}
    for path in discover(folder):
        try:
            current[partition_key(path, folder)] = _fingerprint(path)
        except FileNotFoundError:
            continue  # deleted while we looked
    existing = set(context.instance.get_dynamic_partitions(source_partitions.name))
    new_keys = sorted(k for k in current if k not in existing)
    changed = sorted(k for k, fp in current.items() if seen.get(k) != fp)
    return dg.SensorResult(
        run_requests=[dg.RunRequest(partition_key=k, run_key=f"{k}@{current[k]}") for k in changed],
        dynamic_partitions_requests=[source_partitions.build_add_request(new_keys)] if new_keys else [],
        cursor=json.dumps(current),
    )
