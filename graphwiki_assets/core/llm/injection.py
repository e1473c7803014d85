"""A cheap pre-pass that removes sentences written to instruct an AI rather than to
inform a reader ("Ignore previous instructions and ...", "System: ...").

It is a first filter only; prompts still fence source text as data. The patterns are
about the form of an instruction aimed at a model, not about any particular text.
"""

from __future__ import annotations

import re

from graphwiki_assets.core.text.sentences import sentence_spans

_AI = r"(?:ai|a\.i\.|llm|llms|language\s+models?|ai\s+(?:assistant|model|system)s?|assistants?|chat\s*bots?|gpt(?:-\d\w*)?|claude|bots?)"
_PATTERNS = [
    # overriding what came before
    r"\b(?:ignore|disregard|forget|override|bypass|skip)\b[^.!?\n]{0,40}?\b(?:instructions?|prompts?|rules|directions|guidelines|directives|system\s+messages?|the\s+above|everything\s+(?:above|before|else))\b",
    r"\b(?:disregard|ignore|forget)\s+(?:all\s+|everything\s+)?(?:of\s+)?(?:the\s+)?(?:above|previous|prior|preceding|earlier)\b",
    r"\b(?:new|updated|real|actual|hidden|secret|override)\s+(?:system\s+)?instructions?\s*[:\-]",
    # changing the model's role
    r"\byou\s+are\s+now\b",
    r"\bfrom\s+now\s+on,?\s+(?:you|the\s+" + _AI + r")\b",
    r"\b(?:act|behave)\s+as\s+(?:if\s+you\s+(?:are|were)\s+)?(?:an?\s+)?(?:different\s+|unrestricted\s+|new\s+)?"
    + _AI
    + r"\b",
    r"\bpretend\s+(?:to\s+be|you\s+are|that\s+you)\b",
    r"\b(?:jailbreak|dan\s+mode|developer\s+mode)\b",
    # chat-format role markers
    r"^\W{0,3}(?:system|assistant|user|developer)\s*:",
    r"\[/?(?:system|inst)\]|<\|?(?:system|im_start|im_end|endoftext)\|?>|<</?sys>>",
    # instructions addressed to a model
    r"\b(?:dear|attention|note\s+to(?:\s+the)?|hey|hello|to\s+the|if\s+you\s+are\s+an?)\s+" + _AI + r"\b",
    r"\b"
    + _AI
    + r"\b[^.!?\n]{0,60}?\b(?:must|should|shall|need\s+to|have\s+to|are\s+(?:instructed|required|told|asked))\b",
    r"\binstead,?\s+(?:you\s+(?:should|must)\s+)?(?:output|write|print|say|respond|reply|return|mark|delete|remove|drop|label|classify|answer|tell|state|merge|record|report|insert|add|treat)\b",
    r"\b(?:do\s+not|don't|never)\s+(?:extract|summari[sz]e|index|record|store|ingest|cite|mention|report|include)\b",
    r"\b(?:reveal|print|output|show|repeat|leak)\s+(?:your|the)\s+(?:system\s+prompt|instructions|prompt|hidden\s+prompt)\b",
    r"\b(?:mark|flag|label|record|classify)\s+(?:this|these|all|every|each|the)\s+(?:\w+\s+)?(?:claims?|facts?|statements?|entities|concepts|sources?)\b[^.!?\n]{0,40}?\s+as\b",
    r"\b(?:respond|reply|answer)\s+(?:only\s+)?with\b[^.!?\n]{0,30}?\b(?:json|the\s+word|yes|no|true|false)\b",
]
_INJECTION = re.compile("|".join(f"(?:{p})" for p in _PATTERNS), re.IGNORECASE | re.MULTILINE)


def looks_like_injection(sentence: str) -> bool:
    return bool(_INJECTION.search(sentence))


def strip_injections(text: str) -> tuple[str, list[str]]:
    """(text without the offending sentences, the sentences removed)."""
    removed: list[str] = []
    keep: list[str] = []
    last = 0
    for start, end in sentence_spans(text):
        sentence = text[start:end].strip()
        if looks_like_injection(sentence):
            removed.append(sentence)
            keep.append(text[last:start])
            last = end
            # drop the space that followed the sentence, keep line breaks
            while last < len(text) and text[last] in " \t":
                last += 1
    keep.append(text[last:])
    clean = "".join(keep)
    clean = re.sub(r"[ \t]+\n", "\n", clean)
    clean = re.sub(r"\n{3,}", "\n\n", clean)
    return clean, removed
