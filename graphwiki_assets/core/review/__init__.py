"""Decisions written back into the graph: a stage-2 judgment confirmed or undone (split or
merge), a dispute settled by hand, needs_review flagged on what a change reaches.

``core/lint`` only reads and reports; this package acts on what it finds and may import
it, never the other way round.
"""
