"""How a Dagster run names itself where the graph records who did what (the audit log)."""

from __future__ import annotations

import dagster as dg


def run_actor(context: dg.AssetExecutionContext) -> str:
    return f"dagster run {context.run.run_id[:8]}"
