"""What the audit log records of a question (and of an answer filed back)."""

from __future__ import annotations

from graphwiki_assets.core.audit import Entry
from graphwiki_assets.core.query.models import Answer


def question_entry(answer: Answer, actor: str, action: str = "question", **outputs) -> Entry:
    return Entry(
        action=action,
        actor=actor,
        backend=answer.backend,
        summary=f"{answer.shape} ({answer.technique}): {answer.question[:120]}",
        inputs={"question": answer.question},
        outputs={
            "found": answer.found,
            "citations": list(answer.citations),
            "concepts": [e["concept_id"] for e in answer.entities],
            **outputs,
        },
    )
