"""A raw source is quoted by what it says in prose: its format's reader drops the front
matter and the code blocks a quote would otherwise hold."""

from __future__ import annotations

from graphwiki_assets.core.query.fallback import _prose, _quotes

DOC = """---
title: Storage drivers
description: Where Quarrel keeps its records.
---

# Storage drivers

```go
cfg.Init(settings, QUARREL_DRIVER)
```

The QUARREL_DRIVER variable picks where records are kept: in a file or in a database.
"""


def test_a_markdown_source_is_quoted_from_its_prose():
    quotes = _quotes(_prose(DOC, "docs/storage.md"), ["QUARREL_DRIVER"])
    assert quotes == ("The QUARREL_DRIVER variable picks where records are kept: in a file or in a database.",)


def test_a_plain_text_source_is_quoted_as_written():
    assert _quotes(_prose("Quarrel keeps records. It has drivers.", "notes.txt"), ["drivers"]) == ("It has drivers.",)
