"""All Cypher of the audit log. Entries are only ever CREATEd and read: no statement here
(or anywhere else) sets a property of a :LogEntry or deletes one."""

APPEND = """
UNWIND $entries AS e
CREATE (l:LogEntry {id: e.id, at: datetime(e.at), recorded_at: datetime.realtime(), action: e.action,
                    actor: e.actor, backend: e.backend, summary: e.summary, inputs: e.inputs, outputs: e.outputs})
"""

# In the order they were appended (recorded_at, the server's clock; `at` is when the act
# itself happened, as its caller says), newest last like a log file; `limit` keeps the newest.
READ = """
MATCH (l:LogEntry)
WHERE ($since IS NULL OR l.at >= datetime($since)) AND ($action IS NULL OR l.action = $action)
WITH l ORDER BY l.recorded_at DESC, l.id DESC LIMIT $limit
RETURN l.id AS id, toString(l.at) AS at, l.action AS action, l.actor AS actor, l.backend AS backend,
       l.summary AS summary, l.inputs AS inputs, l.outputs AS outputs
ORDER BY l.recorded_at, l.id
"""
