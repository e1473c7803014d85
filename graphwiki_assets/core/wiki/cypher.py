"""All Cypher of the wiki export. Read-only."""

from graphwiki_assets.core.store.schema import in_play

# The concepts that get a page: in play and not waiting for a second independent source
# (a concept flagged for another reason keeps its page, which shows the flag).
PAGE_CONCEPTS = f"""
MATCH (c:Concept)
WHERE {in_play("c")} AND coalesce(c.review_reason, '') <> $awaiting
RETURN c.id AS id, c.name AS name, c.type AS type,
       coalesce(c.independent_sources, c.source_count, 0) AS weight
ORDER BY c.id
"""
