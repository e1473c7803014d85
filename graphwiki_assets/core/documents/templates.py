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


def _template_rule(state: StateInline, silent: bool) -> bool:
    opener = state.src[state.pos : state.pos + 2]
    closer = _CLOSERS.get(opener)
    if closer is None:
        return False
    end = state.src.find(closer, state.pos + 2, state.posMax + 1)
    if end < 0:
        return False
    if not silent:
        token = state.push(TEMPLATE_TAG, "", 0)
        token.content = state.src[state.pos + 2 : end]
    state.pos = end + 2
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
