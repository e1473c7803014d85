import dagster as dg

ingest_job = dg.define_asset_job(
    "ingest_sources",
    selection=dg.AssetSelection.groups("ingest"),
    # Every step of a run in one process: the embedding model loads once per run.
    executor_def=dg.in_process_executor,
    description="Source files through extraction, resolution, claims and the verify gates, many per run.",
)
