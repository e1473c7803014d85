"""Names that are not entities: a cheap deterministic pass over every backend's extraction.

A model and the offline rules alike pick up strings from technical text that no page of a
knowledge base should be about: identifiers, paths, measurements, version numbers, button
labels, code. ``junk_reason`` says which rule a name falls under (or ``None`` for a name
worth a node); each rule is a statement about the form of the string, never about a
corpus, so it holds on text it has not seen.
"""

from __future__ import annotations

import re

# An identifier or hash: nobody writes prose about a commit id, a ticket number or a
# tweet id; they are references, kept in the text, not things.
_HEX_ID = re.compile(r"(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}", re.IGNORECASE)
_UUID = re.compile(r"[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}", re.IGNORECASE)
_LONG_DIGITS = re.compile(r"\D*\d{6,}\D*")
# A long run of mixed case, digits and '_'/'-' with no word in it: a token or key.
_TOKEN = re.compile(r"(?=.*[a-z])(?=.*[A-Z])(?=.*[\d_])[A-Za-z0-9_\-+/=]{16,}")

# A path or URL names a location of a file or page, not what it holds.
_URL = re.compile(r"^[a-z][a-z0-9+.\-]*://|^www\.|^mailto:|@[\w\-]+\.[a-z]{2,}$|^[\w.\-]+:\d{2,5}$", re.IGNORECASE)
_FILE_EXTENSIONS = frozenset(
    """md markdown txt rst html htm json yaml yml toml ini cfg conf xml csv tsv log go py js ts rs
    java c h cc cpp hpp sh bash zsh ps1 bat rb php sql proto pb db lock tar gz tgz zip png jpg
    jpeg gif svg pdf exe dll so""".split()
)

# A number with a unit or a duration is a measurement ("1m", "10ms", "2 GB"), a quantity of
# something rather than a thing.
_UNIT_WORDS = frozenset(
    """ms millisecond milliseconds s sec secs second seconds m min mins minute minutes h hr hrs hour
    hours d day days w wk week weeks month months y yr yrs year years ns us µs b byte bytes kb
    mb gb tb pb kib mib gib tib bit bits kbps mbps gbps hz khz mhz ghz k x qps rps ops iops
    percent pct px pt em rem am pm""".split()
)
_MEASURE = re.compile(r"^(?:[~<>≈]?\s*\d[\d,:]*(?:\.\d+)?\s*(?:[a-zµ%]+)?\s*)+$", re.IGNORECASE)

# A version string alone ("v3.5", "3.6.0-rc.1") says which release, not which thing.
_VERSION = re.compile(r"^(?:v|version\s*)?\d+(?:\.\d+|\.x)+(?:[\-+.][\w.]+)?$|^v\d+$", re.IGNORECASE)

# Markup and code: tags, template tags, entities, flags, assignments, calls, variables.
_MARKUP = re.compile(r"</?[a-z][^>]*>|\{\{|\}\}|\{%|%\}|&[a-z]+;|&#\d+;|!\[|\]\(|^\[|\]$", re.IGNORECASE)
_CODE_CHARS = re.compile(r"[=(){}\[\]<>$;|\\`*^~%]|::|->|=>")
_SNAKE = re.compile(r"(?:^|\s)\S*[A-Za-z0-9]_\S*")  # snake_case, CONSTANT_CASE, env vars: a token with an underscore
_HEX_LITERAL = re.compile(r"0x[0-9a-f]+", re.IGNORECASE)
_FLAG_INSIDE = re.compile(r"(?:^|\s)-{1,2}[A-Za-z]")  # "tool --help": a command line
_SLASHED = re.compile(r"^\S*[a-z]\S*/\S+$|^\S+/\S*[a-z]\S*$")  # "docs/guide", "read/write"; not "TCP/IP"
# "Figure 2", "Issue 6951", "Step 3": a label that points into a document, not a thing.
_REFERENCE = re.compile(
    r"^(?:figure|fig|table|issue|pr|pull\s+request|step|section|chapter|page|line|item|example|listing|appendix|"
    r"footnote|note|option|case|bug|ticket|commit)\s*#?\d+$",
    re.IGNORECASE,
)
# Placeholder names of examples: what a sample says, not what it is about.
_PLACEHOLDERS = frozenset("foo bar baz qux quux foobar corge grault garply lorem ipsum".split())
# A lowercase string with a finite verb is a clause or a message ("user name is empty").
_CLAUSE_VERBS = frozenset("is are was were be been has have had can cannot should must will would not does did".split())
_DOTTED = re.compile(r"^[A-Za-z_][\w\-]*(?:\.[A-Za-z_][\w\-]*)+$")  # pkg.Func, file.ext, host.domain
_PATH = re.compile(r"^(?:~|\.{1,2})?/|^[\w.\-]+(?:/[\w.\-*{}]+){2,}/?$|\\|^[\w\-]+(?:\.[\w\-]+)*\.[a-z]{2,}/\S")

# Button and menu text: an instruction to a reader of a page ("Click Save") names a control
# on a screen, not a topic; so does a callout's label ("Note", "Warning").
_UI_PHRASES = frozenset(
    p.strip()
    for p in """ok|cancel|submit|save|apply|close|next|back|previous|continue|confirm|delete|remove|edit|
    add|create|update|upload|download|install|share|copy|paste|search|filter|sort|reset|refresh|retry|
    login|logout|sign in|sign up|sign out|log in|log out|register|subscribe|unsubscribe|read more|
    learn more|see more|show more|view more|show less|click here|get started|try it now|buy now|
    contact us|go to top|back to top|edit this page|view page source|create child page|
    create documentation issue|create project issue|print entire section|skip to content|
    table of contents|on this page|next page|previous page|
    note|tip|hint|info|warning|caution|danger|important|todo""".split("|")
)
_UI_WORDS = frozenset("button tab menu link checkbox dropdown icon toggle dialog field label".split())


def junk_reason(name: str, type_name: str = "") -> str | None:
    """Why ``name`` is not an entity (the rule's name), or ``None`` when it may be one. A
    ``type_name`` the extractor gave that names a screen control ("button") counts too."""
    text = " ".join((name or "").split())
    bare = text.strip("\"'`.,;: ")
    if not any(ch.isalnum() for ch in bare):
        return "punctuation"
    if len(re.sub(r"\W", "", bare)) < 2:
        return "single character"
    if _URL.search(bare) or _PATH.search(bare) or _SLASHED.match(bare) or _has_file_extension(bare):
        return "path or url"
    if _UUID.fullmatch(bare) or _HEX_ID.fullmatch(bare) or _LONG_DIGITS.fullmatch(bare):
        return "identifier"
    if _TOKEN.fullmatch(bare) or _mixed_id(bare):
        return "identifier"
    if _VERSION.fullmatch(bare):
        return "version"
    if _MEASURE.fullmatch(bare) and _measure_units_known(bare):
        return "measurement"
    if _HEX_LITERAL.fullmatch(bare):
        return "identifier"
    if _MARKUP.search(text) or _CODE_CHARS.search(bare) or _FLAG_INSIDE.search(bare) or _SNAKE.search(bare):
        return "markup or code"
    if _REFERENCE.fullmatch(bare):
        return "reference label"
    lowered = bare.lower().split()
    if all(w.rstrip("0123456789") in _PLACEHOLDERS for w in lowered):
        return "placeholder"
    if all(re.fullmatch(r"[a-z]+\d+", w) for w in bare.split()):
        return "placeholder"  # "node2", "key1 key5", "infra3": sample names numbered in an example
    if re.search(r"\w-(?:based|like|style|compatible|enabled|aware|specific|related)$", bare, re.IGNORECASE):
        return "adjective"  # "gRPC-based": describes something by a name, is none
    if bare == bare.lower() and len(lowered) > 1 and any(w in _CLAUSE_VERBS for w in lowered):
        return "clause"
    if _DOTTED.fullmatch(bare) and " " not in bare and not _product_dot(bare):
        return "markup or code"
    if bare.lower() in _UI_PHRASES or (type_name and type_name.strip().lower().split()[-1:] == ["button"]):
        return "ui label"
    words = bare.lower().split()
    if len(words) >= 2 and words[-1] in _UI_WORDS and " ".join(words[:-1]) in _UI_PHRASES:
        return "ui label"  # "Save button", "Download link"
    return None


def _has_file_extension(text: str) -> bool:
    """'config.yaml', 'main.go': one word ending in a file extension after a dot."""
    if " " in text or "." not in text[1:]:
        return False
    stem, ext = text.rsplit(".", 1)
    capitalised = stem[:1].isupper() and not stem.isupper()  # "Node.js" is a product's name
    return bool(stem) and ext.lower() in _FILE_EXTENSIONS and not capitalised


def _product_dot(text: str) -> bool:
    """A dotted name that is a product's own spelling ("Node.js", "ASP.NET", "Vue.js"): it
    starts with a capital and has no lowercase part after a dot that reads as a code member."""
    parts = text.split(".")
    return parts[0][:1].isupper() and len(parts) == 2 and (parts[1].isupper() or parts[1] in ("js", "io", "ai", "net"))


def _mixed_id(text: str) -> bool:
    """One token of 6+ characters whose digits are interleaved with letters at random
    ("C3HD8ARJ5", "tmp071677638", "a1b2c3d4e5"): a generated id. Names with a digit or two
    ("Neo4j", "K8s", "EC2", "IPv6") have fewer digit runs and fewer digits."""
    if " " in text or len(text) < 6 or not re.fullmatch(r"[A-Za-z0-9\-]+", text):
        return False
    digits = sum(ch.isdigit() for ch in text)
    runs = len(re.findall(r"\d+", text))
    return digits >= 4 or (runs >= 3 and digits >= 3)


def _measure_units_known(text: str) -> bool:
    """Every letter group after a number is a unit of time, size, rate or a multiplier."""
    units = re.findall(r"[A-Za-zµ%]+", text)
    if any(len(u) == 1 and u.isupper() for u in units):
        return False  # "3D", "5G": a capital letter after a digit is a name's, not a unit's
    return all(u.lower() in _UNIT_WORDS or u == "%" for u in units)


def is_junk(name: str, type_name: str = "") -> bool:
    return junk_reason(name, type_name) is not None
