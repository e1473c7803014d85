"""The eval on real documents: a folder of markdown files ingested as a user would, questions graded against a key, and samples of concepts and contradictions graded by labels."""
