"""What every answer about the closest match to a typed name shows: the note first in the text
and the flags, the fuzzy rung, and the concept it linked with how."""

from __future__ import annotations


def assert_answered_about_closest(answer, name: str, mention: str, concept_id: str, match: str) -> str:
    """Returns the note, for what the caller checks beyond the answer."""
    note = f'Answering about "{name}" (closest match to "{mention}").'
    assert (answer.found, answer.rung) == (True, "fuzzy")
    assert answer.answer.startswith(note + "\n") and answer.flags[0] == note
    assert [(e["concept_id"], e["match"]) for e in answer.entities] == [(concept_id, match)]
    return note
