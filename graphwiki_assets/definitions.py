"""The Dagster code location: every area's definitions merged, with shared resources."""

from __future__ import annotations

import importlib

import dagster as dg

from graphwiki_assets.defs.automation import after_ingest_sensor
from graphwiki_assets.defs.resources import build_resources

AREAS = ["ingest", "query", "lint", "overview", "evals"]


def _area_definitions() -> list[dg.Definitions]:
    found = []
    for area in AREAS:
        try:
            module = importlib.import_module(f"graphwiki_assets.defs.{area}.definitions")
        except ModuleNotFoundError as exc:
            if exc.name == f"graphwiki_assets.defs.{area}.definitions":
                continue  # area without Dagster objects yet
            raise
        found.append(module.defs)
    return found


@dg.definitions
def defs() -> dg.Definitions:
    # One process per run: steps share the loaded embedding model, and backfills launched from
    # the asset graph (which do not use a job's executor) do the same.
    return dg.Definitions.merge(*_area_definitions(),
                                dg.Definitions(resources=build_resources(), executor=dg.in_process_executor,
                                               sensors=[after_ingest_sensor]))
