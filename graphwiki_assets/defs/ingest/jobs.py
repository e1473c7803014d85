import dagster as dg

IN_PROCESS: dict = {"execution": {"config": {"in_process": {}}}}


def execution_config(workers: int) -> dict:
    """A run's executor: one process for every step (the embedding model loads once per run),
    or with ``workers`` > 1 the multiprocess executor, running up to that many extraction
    steps (one per batch) side by side."""
    if workers <= 1:
        return IN_PROCESS
    return {"execution": {"config": {"multiprocess": {"max_concurrent": workers}}}}


ingest_job = dg.define_asset_job(
    "ingest_sources",
    selection=dg.AssetSelection.groups("ingest"),
    # In process unless a run's config asks for the multiprocess executor (the sources sensor
    # does when GRAPHWIKI_INGEST_WORKERS > 1; the launchpad can for any run).
    executor_def=dg.multi_or_in_process_executor,
    config=IN_PROCESS,
    description="Source files through extraction (one step per batch), resolution, claims and the verify "
    "gates, many per run.",
)
