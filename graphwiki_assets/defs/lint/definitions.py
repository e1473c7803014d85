import dagster as dg

from graphwiki_assets.defs.lint.assets import lint_report
from graphwiki_assets.defs.resources import resources_for

lint_job = dg.define_asset_job(
    "lint_graph",
    selection=dg.AssetSelection.assets(lint_report),
    description="Materialise the lint report (and its asset checks).",
)

daily_lint = dg.ScheduleDefinition(
    name="daily_lint",
    job=lint_job,
    cron_schedule="0 6 * * *",
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Lint runs by itself every day, not only when someone asks.",
)


@dg.definitions
def defs() -> dg.Definitions:
    return dg.Definitions(
        assets=[lint_report], jobs=[lint_job], schedules=[daily_lint], resources=resources_for("graphwiki", "neo4j")
    )
