"""Declarative automation: what runs by itself after an ingest, and the sensor that runs it.

The query area's projection and signatures, and the lint report, are derived from the
whole graph; each is brought up to date once after a run writes ``claim_links`` (not once
per source). Dagster evaluates automation conditions only through an automation sensor,
and its default one is off in a new deployment, so the code location ships its own, on.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import dagster as dg

from graphwiki_assets.core.setting_fields import declared, read

AFTER_INGEST = (
    (dg.AutomationCondition.newly_missing() | dg.AutomationCondition.any_deps_updated()).since_last_handled()
    & ~dg.AutomationCondition.any_deps_in_progress()
    & ~dg.AutomationCondition.in_progress()
)


@dataclass(frozen=True)
class SensorSettings:
    """How often the code location's sensors look: fixed when it loads, as Dagster needs."""

    interval_s: int = declared(
        30,
        env="GRAPHWIKI_SENSOR_INTERVAL_S",
        what="seconds between two looks of the sources sensor, and between two automation evaluations",
    )


def sensor_interval_s() -> int:
    return read(SensorSettings, os.environ, SensorSettings()).interval_s


def after_ingest_sensor(interval_s: int) -> dg.AutomationConditionSensorDefinition:
    return dg.AutomationConditionSensorDefinition(
        "after_ingest",
        target=dg.AssetSelection.all(),  # only assets with an automation condition are evaluated
        default_status=dg.DefaultSensorStatus.RUNNING,
        minimum_interval_seconds=interval_s,
        description="Refreshes the GDS projection, the shape signatures and the lint report after an ingest.",
    )


@dg.definitions
def defs() -> dg.Definitions:
    return dg.Definitions(sensors=[after_ingest_sensor(sensor_interval_s())])
