import dagster as dg

from graphwiki_assets.defs.overview.assets import overview
from graphwiki_assets.defs.resources import resources_for


@dg.definitions
def defs() -> dg.Definitions:
    return dg.Definitions(assets=[overview], resources=resources_for("graphwiki", "neo4j"))
