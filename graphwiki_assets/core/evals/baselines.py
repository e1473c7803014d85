"""Committed baselines (``evals/baselines.json``) and the regression comparison against them.

Each eval entry records when, with which backend and by which command its numbers were
measured, and lists metrics by direction::

    "er_eval_general": {"date": ..., "backend": ..., "command": ...,
                        "higher_is_better": {"two_stage.f1": 0.71, ...},
                        "lower_is_better": {"ingest.llm_calls_per_passage": {"value": 8.6, "tolerance": 1}}}

The top-level ``evals`` hold the offline rules' numbers (CI's gate). A real model's numbers
sit in their own section beside them, named for the client label they were measured with::

    "local": {"label": "openai:qwen2.5-coder-1.5b", "model": ..., "evals": {...}}

A run is only ever compared with the numbers of the backend it ran on: a model's numbers
are no floor for the rules, and the rules' are none for a model.

A metric regresses when it is worse than the baseline by more than the tolerance (the
entry's, else the file's default): small enough to catch a real drop, large enough that
float noise and a re-ordered tie do not fail a run.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from graphwiki_assets.core.evals.datasets import evals_dir
from graphwiki_assets.core.evals.metrics import dotted
from graphwiki_assets.core.evals.results import Result

DEFAULT_TOLERANCE = 0.02


def baselines_path() -> Path:
    return Path(os.environ.get("GRAPHWIKI_EVAL_BASELINES") or evals_dir() / "baselines.json")


def load(path: Path | str | None = None) -> dict:
    path = Path(path) if path else baselines_path()
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"evals": {}}


@dataclass(frozen=True)
class Comparison:
    metric: str
    value: float | None
    baseline: float
    tolerance: float
    higher_is_better: bool

    @property
    def passed(self) -> bool:
        if self.value is None:
            return False  # a metric the eval no longer reports is a regression too
        if self.higher_is_better:
            return self.value >= self.baseline - self.tolerance
        return self.value <= self.baseline + self.tolerance

    def as_dict(self) -> dict:
        return {**asdict(self), "passed": self.passed}

    def describe(self) -> str:
        sign = ">=" if self.higher_is_better else "<="
        bound = self.baseline - self.tolerance if self.higher_is_better else self.baseline + self.tolerance
        return f"{self.metric} = {self.value} (baseline {self.baseline}, needs {sign} {round(bound, 4)})"


OFFLINE_PREFIX = "offline-"  # every offline backend, whatever reads its text


def section(baselines: dict, label: str | None) -> dict:
    """The baselines measured on the backend whose client label is ``label`` (None: the
    offline rules), with the file's tolerance; empty when none were committed for it."""
    if label is None or label.startswith(OFFLINE_PREFIX):
        return baselines
    for key, value in baselines.items():
        if isinstance(value, dict) and value.get("label") == label:
            return {"tolerance": baselines.get("tolerance", DEFAULT_TOLERANCE), **value, "section": key}
    return {"evals": {}}


def _measured(result: Result | Mapping[str, Any]) -> Mapping[str, Any]:
    """A result's JSON form, where the baselines file's dotted keys point."""
    return result.as_json() if isinstance(result, Result) else result


def compare(
    eval_name: str, result: Result | Mapping[str, Any], baselines: dict, label: str | None = None
) -> list[Comparison]:
    """Every baseline metric of ``eval_name`` measured on backend ``label`` against the result."""
    measured = _measured(result)
    baselines = section(baselines, label)
    entry = baselines.get("evals", {}).get(eval_name)
    if not entry:
        return []
    default = float(entry.get("tolerance", baselines.get("tolerance", DEFAULT_TOLERANCE)))
    out = []
    for direction, higher in (("higher_is_better", True), ("lower_is_better", False)):
        for metric, spec in entry.get(direction, {}).items():
            base, tol = (spec["value"], spec.get("tolerance", default)) if isinstance(spec, dict) else (spec, default)
            value = dotted(measured, metric)
            out.append(Comparison(metric, None if value is None else float(value), float(base), float(tol), higher))
    return out


def record(
    baselines: dict, label: str, section_key: str, eval_name: str, result: Result | Mapping[str, Any], about: dict
) -> dict:
    """``baselines`` with ``eval_name``'s numbers from ``result`` as the new baseline of backend
    ``label``: the same metrics (and tolerances) the offline entry gates on, today's values.
    The offline rules write the top-level entries; any other backend its ``section_key``."""
    measured = _measured(result)
    template = baselines.get("evals", {}).get(eval_name, {})
    entry: dict = dict(about)
    for direction in ("higher_is_better", "lower_is_better"):
        metrics: dict = {}
        for metric, spec in template.get(direction, {}).items():
            value = dotted(measured, metric)
            if value is None:
                continue
            value = round(float(value), 4)
            metrics[metric] = {**spec, "value": value} if isinstance(spec, dict) else value
        entry[direction] = metrics
    out = json.loads(json.dumps(baselines))  # a copy: the caller's dict is left as it was
    if label.startswith(OFFLINE_PREFIX):
        out.setdefault("evals", {})[eval_name] = entry
    else:
        section = out.setdefault(section_key, {"label": label, "evals": {}})
        section["label"] = label
        section.setdefault("evals", {})[eval_name] = entry
    return out


def write(baselines: dict, path: Path | None = None) -> Path:
    path = path or baselines_path()
    path.write_text(json.dumps(baselines, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def regressions(comparisons: list[Comparison]) -> list[Comparison]:
    return [c for c in comparisons if not c.passed]
