import dagster as dg

from graphwiki_assets.defs.overview.assets import overview

defs = dg.Definitions(assets=[overview])
