"""The Dagster code location: everything under ``defs/``, as Dagster's loader finds it.

Each area's ``definitions.py`` brings its assets, jobs, schedules and sensors with the
resources they use; modules at the top of ``defs/`` add what belongs to no area (the
automation sensor). The CLI loads the same object.
"""

from __future__ import annotations

from pathlib import Path

import dagster as dg


@dg.definitions
def defs() -> dg.Definitions:
    # One process per run: steps share the loaded embedding model, and backfills launched from
    # the asset graph (which do not use a job's executor) do the same.
    return dg.Definitions.merge(
        dg.load_from_defs_folder(path_within_project=Path(__file__).parent),
        dg.Definitions(executor=dg.in_process_executor),
    )
