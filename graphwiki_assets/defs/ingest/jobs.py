import dagster as dg

from graphwiki_assets.defs.ingest.partitions import source_partitions

ingest_job = dg.define_asset_job(
    "ingest_sources",
    selection=dg.AssetSelection.groups("ingest"),
    partitions_def=source_partitions,
    description="One source file through extraction, resolution, claims and the verify gates.",
)
