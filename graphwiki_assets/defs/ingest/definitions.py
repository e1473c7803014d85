import dagster as dg

from graphwiki_assets.defs.ingest.assets import claim_links, extracted_candidates, resolved_concepts, sources, summaries
from graphwiki_assets.defs.ingest.jobs import ingest_job
from graphwiki_assets.defs.ingest.sensors import sources_sensor

defs = dg.Definitions(
    assets=[sources, extracted_candidates, resolved_concepts, claim_links, summaries],
    jobs=[ingest_job],
    sensors=[sources_sensor],
)
