"""Declarative automation: what runs by itself after an ingest, and the sensor that runs it.

The query area's projection and signatures, and the lint report, are derived from the
whole graph; each is brought up to date once after a run writes ``claim_links`` (not once
per source). Dagster evaluates automation conditions only through an automation sensor,
and its default one is off in a new deployment, so the code location ships its own, on.
"""

from __future__ import annotations

import dagster as dg

AFTER_INGEST = (
    (dg.AutomationCondition.newly_missing() | dg.AutomationCondition.any_deps_updated()).since_last_handled()
    & ~dg.AutomationCondition.any_deps_in_progress()
    & ~dg.AutomationCondition.in_progress()
)

after_ingest_sensor = dg.AutomationConditionSensorDefinition(
    "after_ingest",
    target=dg.AssetSelection.all(),  # only assets with an automation condition are evaluated
    default_status=dg.DefaultSensorStatus.RUNNING,
    minimum_interval_seconds=30,
    description="Refreshes the GDS projection, the shape signatures and the lint report after an ingest.",
)
