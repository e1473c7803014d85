"""A sensor that turns new and changed files into partitions and a few large runs.

Size and modification time tell which files to look at again; their SHA256, checked
against the graph, tells which need work. A file whose text the graph already holds
(ingested by the CLI, by another code location, or before Dagster's history was reset)
starts no run: its partitions are reported materialised, with where the text came from.
The files that do need work go out as runs over ranges of up to MAX_PARTITIONS_PER_RUN
consecutive partitions, each run working through its sources in batches: in one process, or
with GRAPHWIKI_INGEST_WORKERS > 1 on the multiprocess executor, its batches' extraction
steps side by side.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import dagster as dg

from graphwiki_assets.core.config import ConfigError
from graphwiki_assets.core.ingest import cypher
from graphwiki_assets.core.sources import SourceRejected, discover, partition_key, read_source
from graphwiki_assets.core.store.driver import GraphUnavailable
from graphwiki_assets.defs.ingest.assets import MAX_PARTITIONS_PER_RUN
from graphwiki_assets.defs.ingest.jobs import execution_config, ingest_job
from graphwiki_assets.defs.ingest.partitions import SOURCES, source_partitions
from graphwiki_assets.defs.resources import GraphwikiConfig, LLMResource, Neo4jResource

# Dagster's documented run tags for one run over a range of partitions.
RANGE_START, RANGE_END = "dagster/asset_partition_range_start", "dagster/asset_partition_range_end"
INGEST_ASSETS = ("sources", "extracted_candidates", "resolved_concepts", "claim_links", "summaries")


def _fingerprint(path: Path) -> str:
    # Size and mtime are enough to notice a change; the SHA256 decides for real.
    stat = path.stat()
    return f"{stat.st_size}:{stat.st_mtime_ns}"


def ranges(ordered: list[str], wanted: set[str], limit: int = MAX_PARTITIONS_PER_RUN) -> list[tuple[str, str, int]]:
    """(first, last, count) of each stretch of consecutive wanted keys, cut at ``limit`` keys."""
    out: list[tuple[str, str, int]] = []
    start = count = 0
    for i, key in enumerate(ordered + [None]):  # type: ignore[list-item]
        inside = key is not None and key in wanted
        if inside and count == 0:
            start = i
        if inside:
            count += 1
        if count and (not inside or count == limit):
            last = i if inside else i - 1
            out.append((ordered[start], ordered[last], count))
            count = 0
    return out


def run_tags(count: int, llm_label: str, batch: int) -> dict[str, str]:
    """What a run over sources is, at a glance in the runs list: how many, which LLM backend,
    how many sources per batch."""
    return {"graphwiki/sources": str(count), "graphwiki/llm": llm_label, "graphwiki/batch": str(batch)}


def sources_sensor(interval_s: int) -> dg.SensorDefinition:
    return dg.sensor(
        name="sources_sensor",
        job=ingest_job,
        minimum_interval_seconds=interval_s,
        default_status=dg.DefaultSensorStatus.RUNNING,
        description="Watches the sources folder; new or changed files become partitions, and those whose text "
        "the graph does not hold yet become a few runs of many partitions.",
    )(look_at_sources)


def look_at_sources(
    context: dg.SensorEvaluationContext, graphwiki: GraphwikiConfig, neo4j: Neo4jResource, llm: LLMResource
) -> dg.SensorResult | dg.SkipReason:
    folder = Path(graphwiki.sources_dir)
    seen: dict[str, str] = json.loads(context.cursor) if context.cursor else {}
    current: dict[str, str] = {}
    for path in discover(folder):
        try:
            current[partition_key(path, folder)] = _fingerprint(path)
        except OSError:
            continue  # deleted or unreadable while we looked; the next tick sees it again
    touched = sorted(k for k, fp in current.items() if seen.get(k) != fp)
    if not touched:
        return dg.SkipReason(f"no new or changed files in {folder}")

    shas: dict[str, str] = {}
    for key in touched:
        try:
            shas[key] = read_source(folder / key, max_bytes=graphwiki.max_source_bytes, display=key, parse=False).sha256
        except SourceRejected:
            pass  # a run reports why it is skipped
    try:
        version = graphwiki.load_schema().config.extraction_version
        with neo4j.open() as store:
            known = {
                r["sha256"]: r["id"]
                for r in store.query(
                    cypher.SOURCES_BY_SHA, sha256s=sorted(set(shas.values())), extraction_version=version
                )
            }
    except (GraphUnavailable, ConfigError) as exc:
        return dg.SkipReason(f"{exc} (the files are looked at again on the next tick)")

    existing = context.instance.get_dynamic_partitions(SOURCES)
    new_keys = sorted(k for k in current if k not in set(existing))
    in_graph = {k for k, sha in shas.items() if sha in known}
    wanted = set(touched) - in_graph
    runs = []
    for first, last, count in ranges(list(existing) + new_keys, wanted):
        digest = hashlib.sha1(json.dumps([current.get(k) for k in sorted(wanted)]).encode()).hexdigest()[:12]
        runs.append(
            dg.RunRequest(
                run_key=f"{first}..{last}@{digest}",
                tags={RANGE_START: first, RANGE_END: last, **run_tags(count, llm.label(), graphwiki.ingest_batch)},
                run_config=execution_config(graphwiki.ingest_workers),
            )
        )
    events = [
        dg.AssetMaterialization(
            asset_key=asset,
            partition=key,
            metadata={
                "status": "unchanged",
                "source_id": known[shas[key]],
                "note": "the graph already holds this text (same SHA256); no run was needed",
            },
        )
        for key in sorted(in_graph)
        for asset in INGEST_ASSETS
    ]
    context.log.info(
        f"{len(touched)} new or changed file(s): {len(in_graph)} already in the graph, "
        f"{len(wanted)} to ingest in {len(runs)} run(s)"
    )
    return dg.SensorResult(
        run_requests=runs,
        dynamic_partitions_requests=[source_partitions.build_add_request(new_keys)] if new_keys else [],
        asset_events=events,
        cursor=json.dumps(current),
    )
