"""The headline metrics' targets, read by the report (its numbers) and its markdown (met or not)."""

from __future__ import annotations

# The second seed's success metrics: (comparison, target).
TARGETS = {
    "orphan_rate": ("<", 0.05),
    "provenance_completeness": ("=", 1.0),
    "dangling_references": ("=", 0),
    "contested_flag_accuracy": ("=", 1.0),
}


def meets_target(name: str, value: float) -> bool:
    op, target = TARGETS[name]
    return value < target if op == "<" else value == target
