"""Static-site template tags in markdown (Hugo shortcodes ``{{< note >}}``, ``{{% tab %}}``,
Hugo and Liquid expressions ``{{ .Title }}``, Jekyll tags ``{% include x.html %}``) read as
tokens of their own by an inline rule of the markdown parser, so they never become prose.

The rule runs inside markdown-it's inline pass: a tag is recognised where the parser stands
in the text, never inside code spans or fenced code (those are not inline-parsed).
"""

from __future__ import annotations

from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

TEMPLATE_TAG = "template_tag"
_CLOSERS = {"{{": "}}", "{%": "%}"}
# Paired tags whose body is code or literal template text, not prose: Hugo's built-in
# ``highlight`` shortcode, Liquid's ``highlight`` and ``raw`` blocks.
CODE_BODIES = frozenset({"highlight", "raw"})


@dataclass(frozen=True)
class Tag:
    name: str  # "note", "highlight", "include"; "" for an expression such as {{ .Title }}
    closing: bool  # {{< /note >}}, {% endhighlight %}


def template_plugin(md: MarkdownIt) -> None:
    md.inline.ruler.before("text", TEMPLATE_TAG, _template_rule)


def _tag_end(src: str, pos: int, limit: int) -> int:
    """Where a template tag that opens at ``pos`` ends (just after its closer), or -1."""
    closer = _CLOSERS.get(src[pos : pos + 2])
    if closer is None:
        return -1
    end = src.find(closer, pos + 2, limit)
    return end + 2 if end >= 0 else -1


def without_tags(code: str) -> str:
    """Inline code without its template tags: a site generator expands them inside code
    spans too (``{{< param version >}}``), so what is left is what the reader sees."""
    kept: list[str] = []
    pos = 0
    while pos < len(code):
        end = _tag_end(code, pos, len(code))
        if end < 0:
            kept.append(code[pos])
            pos += 1
        else:
            pos = end
    return "".join(kept)


def _template_rule(state: StateInline, silent: bool) -> bool:
    end = _tag_end(state.src, state.pos, state.posMax + 1) if state.src[state.pos] == "{" else -1
    if end < 0:
        return False
    if not silent:
        token = state.push(TEMPLATE_TAG, "", 0)
        token.content = state.src[state.pos + 2 : end - 2]
    state.pos = end
    return True


def read_tag(content: str) -> Tag:
    """What a tag's inside says: its name and whether it closes a pair."""
    inner = content.strip().strip("<>%-").strip()
    closing = inner.startswith("/")
    words = inner.lstrip("/").split()
    name = words[0].lower() if words and (words[0][:1].isalpha()) else ""
    if name.startswith("end") and len(name) > 3:
        return Tag(name[3:], True)
    return Tag(name, closing)
