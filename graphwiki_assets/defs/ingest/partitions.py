"""One dynamic partition per source file (key = path relative to the sources folder)."""

import dagster as dg

SOURCES = "sources"
source_partitions = dg.DynamicPartitionsDefinition(name=SOURCES)
