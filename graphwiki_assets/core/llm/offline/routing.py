"""Offline question routing: the question's shape picks the retrieval algorithm.

Patterns are tried from the most specific shape to the least (a "what is the
difference between" question is a comparison, not a definition); a question no pattern
fits is a "what is" lookup of the names it contains.
"""

from __future__ import annotations

import re

from graphwiki_assets.core.llm.calls import RouteRequest, RouteResponse
from graphwiki_assets.core.llm.offline.candidates import capitalised_runs, quoted_terms
from graphwiki_assets.core.text.words import STOPWORDS

_I = re.IGNORECASE
# "the corpus", "these documents", "my notes", "this knowledge base"...
_WHOLE_NOUN = (
    r"(?:corpus|collection|graph|wiki|knowledge\s+(?:base|graph)|kb|library|archive|documents?|sources?|"
    r"notes?|files?|texts?|papers?|articles?)"
)
_COLLECTION = rf"(?:the|this|these|our|my|your)\s+{_WHOLE_NOUN}"
_WHOLE = re.compile(rf"^(?:(?:the|this|these|our|my|your)\s+)?{_WHOLE_NOUN}$|^(?:here|it|them|everything)$", _I)
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (shape, re.compile(p, _I))
    for shape, p in [
        # about the whole collection; a named subject, if any, is "a"
        (
            "global",
            rf"^what\s+(?:does|do|did)\s+{_COLLECTION}\s+(?:say|tell\s+(?:me|us))\s+(?:about|on|regarding|of)\s+(?P<a>.+)",
        ),
        ("global", rf"^what\s+(?:is|are)\s+{_COLLECTION}\s+(?:mostly\s+|mainly\s+|chiefly\s+)?about\b"),
        (
            "global",
            rf"^(?:summari[sz]e|give\s+(?:me\s+)?an?\s+(?:overview|summary)\s+of|(?:an?\s+)?overview\s+of)\s+{_COLLECTION}",
        ),
        (
            "global",
            r"^(?:what|which|list|name|show|give|tell|identify|summari[sz]e)\b.*?\b(?:main|major|key|central|principal|"
            r"overall|recurring|dominant|important)\s+(?:topics|themes|subjects|areas|threads)\b"
            r"(?:\s+(?:of|in|about|around|across|within|covered\s+in|discussed\s+in)\s+(?P<a>.+))?",
        ),
        (
            "global",
            r"^(?:what|which)\s+(?:topics|themes|subjects)\s+(?:are|were|does|do)\s+(?:covered|discussed|treated|addressed)\b",
        ),
        (
            "provenance",
            r"^(?:where|which\s+(?:source|document|paper|file)s?)\s+(?:does|did|do)\s+(?:the\s+)?(?:(?:claim|statement|fact|idea|information|notion)\s+)?(?:that\s+)?(?P<a>.+?)\s+come\s+from",
        ),
        (
            "provenance",
            r"\b(?:source|sources|origin|provenance|citation|citations|evidence)\s+(?:of|for|behind)\s+(?:the\s+)?(?:(?:claim|statement|fact|idea)\s+)?(?:that\s+)?(?P<a>.+)",
        ),
        (
            "provenance",
            r"^(?:who|what|which\s+source)\s+(?:says|said|claims|claimed|states|stated)\s+(?:that\s+)?(?P<a>.+)",
        ),
        (
            "provenance",
            r"^(?:how\s+do\s+we\s+know|according\s+to\s+(?:what|which\s+source)\s*,?)\s+(?:that\s+)?(?P<a>.+)",
        ),
        ("compare", r"\bdifferences?\s+between\s+(?P<a>.+?)\s+and\s+(?P<b>.+)"),
        ("compare", r"^compare\s+(?P<a>.+?)\s+(?:and|with|to|vs\.?|versus)\s+(?P<b>.+)"),
        (
            "compare",
            r"^how\s+(?:does|do|is|are)\s+(?P<a>.+?)\s+(?:differ|compare|different)\s+(?:from|to|with)\s+(?P<b>.+)",
        ),
        (
            "compare",
            r"^(?:is|are)\s+(?P<a>.+?)\s+(?:better|worse|faster|slower|bigger|larger|smaller|older|newer|cheaper)\s+than\s+(?P<b>.+)",
        ),
        ("compare", r"^(?P<a>.+?)\s+(?:vs\.?|versus)\s+(?P<b>.+)"),
        (
            "connect",
            r"^how\s+(?:is|are|was|were|does|do|did)\s+(?P<a>.+?)\s+(?:connected|related|linked|tied|connect|relate|link)\s+(?:to|with)\s+(?P<b>.+)",
        ),
        (
            "connect",
            r"\b(?:link|links|connection|connections|relationship|relation|path)\s+between\s+(?P<a>.+?)\s+and\s+(?P<b>.+)",
        ),
        ("connect", r"^what\s+(?:connects|links|ties)\s+(?P<a>.+?)\s+(?:and|to|with)\s+(?P<b>.+)"),
        ("connect", r"^(?:is|are|was|were)\s+(?P<a>.+?)\s+(?:connected|related|linked)\s+(?:to|with)\s+(?P<b>.+)"),
        ("shaped_like", r"\b(?:shaped|structured)\s+like\s+(?P<a>.+)"),
        ("shaped_like", r"\bsimilar\s+in\s+(?:structure|shape)\s+to\s+(?P<a>.+)"),
        ("shaped_like", r"\bsame\s+(?:structure|shape|pattern)\s+as\s+(?P<a>.+)"),
        (
            "shaped_like",
            r"^(?:find|show|list|are\s+there|what\s+are)?\s*(?:other\s+)?(?:things|ones|entities|concepts)\s+like\s+(?P<a>.+)",
        ),
        (
            "related",
            r"^what\s+(?:else\s+)?(?:relates|is\s+related|are\s+related|connects|is\s+connected|is\s+linked)\s+to\s+(?P<a>.+)",
        ),
        (
            "related",
            r"^(?:what|which)\s+(?:other\s+)?(?:topics|concepts|things|entities|subjects|ideas)\s+(?:are\s+)?(?:related|similar|connected|linked|close)\s+to\s+(?P<a>.+)",
        ),
        (
            "related",
            r"\b(?:related|similar|neighbou?ring)\s+(?:topics|concepts|things|subjects|ideas)\s+(?:to|for|of|around)\s+(?P<a>.+)",
        ),
        ("related", r"^(?:what(?:'s|\s+is)\s+)?(?:related|connected)\s+to\s+(?P<a>.+)"),
        (
            "topic",
            r"^(?:list|name|show|enumerate|give\s+me)\s+(?:me\s+)?(?:all\s+|every\s+|the\s+)*(?P<type>(?:[a-z][\w\-]*\s+)?[a-z][\w\-]*s)\b(?:\s+(?P<rest>.*))?$",
        ),
        (
            "topic",
            r"^(?:which|what)\s+(?:are\s+)?(?:all\s+)?(?:the\s+)?(?P<type>[a-z][\w\-]*s|people)\s+(?P<rest>(?:are|were|is|have|has|had|did|do|does|can|could|will|would|in|of|from|on|that|with|use|support|mention|exist|[a-z]+ed)\b.*)$",
        ),
        (
            "topic",
            r"^who\s+(?:is|are|was|were|gets?|got)\s+(?P<type>)(?:mentioned|named|listed|cited|quoted|involved|credited|thanked)\b(?:\s+(?P<rest>.*?))?[?.!]*$",
        ),
        # "what is X used for": the purpose is what is asked, X is the name
        ("what_is", r"^what(?:'s|\s+(?:is|are))\s+(?P<a>.+?)\s+(?:(?:used|good|meant|needed)\s+)?for\s*[?.!]*$"),
        ("what_is", r"^(?:what|who)(?:'s|\s+(?:is|are|was|were))\s+(?P<a>.+)"),
        ("what_is", r"^(?:tell\s+me\s+(?:about|more\s+about)|describe|explain|define|summari[sz]e)\s+(?P<a>.+)"),
        ("what_is", r"^what\s+(?:does|do)\s+(?P<a>.+?)\s+(?:mean|do|stand\s+for)\b"),
    ]
]
_FILLER_END = re.compile(
    r"\s+(?:in\s+(?:the|this|our|my)\s+(?:graph|wiki|knowledge\s+base|kb|corpus|notes))\s*$|\s+please\s*$", _I
)
_VERBISH = re.compile(r"^(?:is|are|was|were|does|do|did|has|have|had|used|uses|can|could|will|would)$|(?:ed|ing)$")


def clean_span(span: str) -> str:
    span = span.strip().rstrip("?.!;:, ")
    span = _FILLER_END.sub("", span)
    span = span.strip().strip("\"'`\u201c\u201d\u2018\u2019").strip()
    span = re.sub(r"^(?:the|a|an)\s+", "", span, flags=_I)
    return span.strip().rstrip("?.!;:, ").strip("\"'`\u201c\u201d\u2018\u2019").strip()


def entities_in(span: str) -> list[str]:
    """Names in a span: the whole span when it is itself a name ("Person-centered
    therapy", "vector index"), else the names inside it ("capital of France" -> France)."""
    span = clean_span(span)
    if not span:
        return []
    words = span.split()
    names = [clean_span(s.text) for s in capitalised_runs(span, []) + quoted_terms(span)]
    names = [n for n in names if n and n.lower() not in STOPWORDS]
    starts_lower = words[0][:1].islower()
    plain_name = len(words) <= 3 and not any(_VERBISH.search(w.lower()) for w in words[1:])
    if names and (starts_lower or not plain_name) and names != [span]:
        return list(dict.fromkeys(names))
    return [span]


def _split_list(span: str) -> list[str]:
    parts = re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|vs\.?|versus)\s+", span)
    return [p for p in parts if p.strip()]


def _singular_type(phrase: str) -> str:
    # Not normal_forms.singular, which keeps 'status' and 'gas' whole (here 'statu', 'ga'):
    # that would change what the rules answer, which only a new OFFLINE_LABEL may do.
    head = phrase.split()[-1].lower() if phrase.split() else "people"  # "who is mentioned": people
    if head == "people":
        return "Person"
    if head.endswith("ies") and len(head) > 4:
        head = head[:-3] + "y"
    elif head.endswith(("ches", "shes", "sses", "xes")):
        head = head[:-2]
    elif head.endswith("s") and not head.endswith("ss"):
        head = head[:-1]
    return head.capitalize()


def route(req: RouteRequest) -> RouteResponse:
    question = " ".join(req.question.split())
    for shape, pattern in _PATTERNS:
        m = pattern.search(question)
        if not m:
            continue
        groups = m.groupdict()
        if shape == "topic":
            type_phrase = groups["type"]
            if type_phrase and type_phrase.split()[-1].lower() in STOPWORDS:
                continue
            rest = groups.get("rest") or ""
            ents = [e for e in entities_in(rest) if e[:1].isupper()] if rest else []
            return RouteResponse(
                shape="topic",
                entities=ents,
                type_filter=_singular_type(type_phrase),
                reason=f"asks for all {type_phrase or 'people'}",
            )
        if shape == "global":
            subject = clean_span(groups.get("a") or "")
            if _WHOLE.match(subject):  # "the main themes of the corpus": no narrower subject
                subject = ""
            return RouteResponse(
                shape="global",
                entities=[subject] if subject else [],
                reason="asks about the whole collection" + (f": what it says about {subject}" if subject else ""),
            )
        spans = [groups[k] for k in ("a", "b") if groups.get(k)]
        if shape == "compare" and len(spans) == 2:
            spans = _split_list(spans[0]) + _split_list(spans[1])
        if shape == "provenance":
            ents = [clean_span(spans[0])]
        else:
            ents = [e for s in spans for e in entities_in(s)]
        if ents:
            return RouteResponse(
                shape=shape, entities=list(dict.fromkeys(ents)), reason=f"matches a '{shape}' question pattern"
            )
    fallback = [clean_span(s.text) for s in capitalised_runs(question, []) + quoted_terms(question)]
    fallback = [f for f in fallback if f and f.lower() not in STOPWORDS]
    if not fallback:
        fallback = (
            [" ".join(w for w in re.findall(r"[\w\-']+", question) if w.lower() not in STOPWORDS)] if question else []
        )
    return RouteResponse(
        shape="what_is",
        entities=[f for f in fallback if f],
        reason="no pattern matched; looking up the names in the question",
    )
