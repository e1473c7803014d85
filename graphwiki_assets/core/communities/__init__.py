"""Communities of the concept graph: Leiden partitions with a report (title and summary) each.

``detect`` runs Leiden (GDS) on the concept layer of the query projection, whose only edges
are the knowledge edges RELATED_TO and PART_OF; ``refresh`` stores each community as a
``:Community`` node reached by ``IN_COMMUNITY`` from its members and asks the LLM for the
reports of the communities it has not reported before. A community is known by its members,
so one whose membership did not change keeps its report and costs no call.
"""
