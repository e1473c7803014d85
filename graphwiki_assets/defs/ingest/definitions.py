import dagster as dg

from graphwiki_assets.defs.automation import sensor_interval_s
from graphwiki_assets.defs.ingest.assets import resolve_and_commit, sources, summaries
from graphwiki_assets.defs.ingest.extract import extracted_candidates
from graphwiki_assets.defs.ingest.io import PartitionFilesIOManager
from graphwiki_assets.defs.ingest.jobs import ingest_job
from graphwiki_assets.defs.ingest.sensors import sources_sensor
from graphwiki_assets.defs.resources import resources_for


@dg.definitions
def defs() -> dg.Definitions:
    return dg.Definitions(
        assets=[sources, extracted_candidates, resolve_and_commit, summaries],
        jobs=[ingest_job],
        sensors=[sources_sensor(sensor_interval_s())],
        resources={
            "ingest_io_manager": PartitionFilesIOManager(),
            **resources_for("graphwiki", "neo4j", "embeddings", "llm"),
        },
    )
