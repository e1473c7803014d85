"""The one error a reader raises for a document it cannot read, with the reason a person
can act on (encrypted, no text layer, damaged)."""


class DocumentUnreadable(ValueError):
    pass
