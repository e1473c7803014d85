"""One file per asset partition, so a run over many partitions can hand them all to the
next step. Dagster's filesystem IO manager stores one partition per output; the ingest
assets run many partitions per run (a backfill or a sensor tick is a few large runs), so
each of their outputs is a dict from partition key to that partition's value."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any
from urllib.parse import quote

import dagster as dg

UNPARTITIONED = "__all__"


class PartitionFilesIOManager(dg.ConfigurableIOManager):
    base_dir: str | None = None  # default: the instance's storage directory

    def _folder(self, instance: dg.DagsterInstance, asset_key: dg.AssetKey) -> Path:
        base = Path(self.base_dir) if self.base_dir else Path(instance.storage_directory()) / "partition_files"
        return base.joinpath(*asset_key.path)

    @staticmethod
    def _file(folder: Path, partition: str) -> Path:
        return folder / f"{quote(partition, safe='')}.pickle"

    def handle_output(self, context: dg.OutputContext, obj: dict[str, Any]) -> None:
        keys = list(context.asset_partition_keys) if context.has_asset_partitions else [UNPARTITIONED]
        missing = [k for k in keys if k not in obj]
        if missing:
            raise dg.DagsterInvariantViolationError(
                f"{context.asset_key.to_user_string()} returned no value for partitions {missing[:5]}"
            )
        folder = self._folder(context.step_context.instance, context.asset_key)
        folder.mkdir(parents=True, exist_ok=True)
        for key in keys:
            path = self._file(folder, key)
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(pickle.dumps(obj[key], protocol=pickle.HIGHEST_PROTOCOL))
            tmp.replace(path)

    def load_input(self, context: dg.InputContext) -> dict[str, Any]:
        # Dagster hands a run's partitions over as a set, whose order changes from process to
        # process; the ingest resolves the sources of a batch in order, so fix one.
        keys = sorted(context.asset_partition_keys) if context.has_asset_partitions else [UNPARTITIONED]
        folder = self._folder(context.instance, context.asset_key)
        out = {}
        for key in keys:
            path = self._file(folder, key)
            if not path.exists():
                raise dg.DagsterInvariantViolationError(
                    f"{context.asset_key.to_user_string()} has not been materialised for partition {key!r}; "
                    "materialise it (and its upstream assets) first"
                )
            out[key] = pickle.loads(path.read_bytes())
        return out
