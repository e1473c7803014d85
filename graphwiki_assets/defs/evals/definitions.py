import dagster as dg

from graphwiki_assets.defs.evals.assets import EVAL_ASSETS, GROUP, LARGE_GROUP
from graphwiki_assets.defs.resources import resources_for

# In-process: the evals share one eval graph (serialised by a lock anyway) and one loaded
# embedding model, and the machine running them is small.
evals_job = dg.define_asset_job(
    "evals_job",
    selection=dg.AssetSelection.groups(GROUP, LARGE_GROUP),
    executor_def=dg.in_process_executor,
    description="Every benchmark on the eval instance, gated by evals/baselines.json (the corpus-scale "
    "multi-hop sets take most of an hour).",
)


@dg.definitions
def defs() -> dg.Definitions:
    return dg.Definitions(
        assets=EVAL_ASSETS, jobs=[evals_job], resources=resources_for("graphwiki", "neo4j", "embeddings", "llm")
    )
