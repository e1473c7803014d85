import dagster as dg

from graphwiki_assets.defs.resources import resources_for
from graphwiki_assets.defs.wiki.assets import wiki


@dg.definitions
def defs() -> dg.Definitions:
    return dg.Definitions(assets=[wiki], resources=resources_for("graphwiki", "neo4j"))
