"""The one list of what graphwiki reads: each format, its file suffixes, and whether its
reader takes bytes (PDF, Word) or decoded text (everything else)."""

from __future__ import annotations

from dataclasses import dataclass

MARKDOWN = "markdown"
MDX = "mdx"
HTML = "html"
TEXT = "text"
PDF = "pdf"
DOCX = "docx"


@dataclass(frozen=True)
class Format:
    name: str
    suffixes: tuple[str, ...]
    binary: bool = False  # read from the file's bytes by its reader, not decoded as UTF-8 first


FORMATS = (
    Format(MARKDOWN, (".md", ".markdown")),
    Format(MDX, (".mdx",)),
    Format(HTML, (".html", ".htm")),
    # plain text, and the markup formats read as text: reStructuredText, Org, AsciiDoc
    Format(TEXT, (".txt", ".text", ".rst", ".org", ".adoc", ".asciidoc")),
    Format(PDF, (".pdf",), binary=True),
    Format(DOCX, (".docx",), binary=True),
)
BY_SUFFIX = {suffix: f for f in FORMATS for suffix in f.suffixes}
BY_NAME = {f.name: f for f in FORMATS}
SOURCE_SUFFIXES = tuple(BY_SUFFIX)
TEXT_SUFFIXES = tuple(suffix for suffix, f in BY_SUFFIX.items() if not f.binary)  # what may come as text


def format_for(suffix: str) -> Format | None:
    """The format of a file suffix, or None when no reader takes it."""
    return BY_SUFFIX.get(suffix.lower())


def is_binary(name: str) -> bool:
    return BY_NAME.get(name, BY_NAME[TEXT]).binary
