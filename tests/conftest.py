"""Fixtures for every test: the test instance's settings and the sentence encoder.

Nothing here opens a connection; the Neo4j fixtures are in tests/integration/conftest.py,
so the unit tests cannot reach a server even by asking for one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from graphwiki_assets.core.settings import Settings


@pytest.fixture(scope="session")
def test_home() -> Path:
    home = os.environ.get("GRAPHWIKI_TEST_HOME")
    if home:
        return Path(home)
    return Path(tempfile.gettempdir()) / f"graphwiki-test-{os.environ.get('GRAPHWIKI_TEST_BOLT_PORT', '7690')}"


@pytest.fixture(scope="session")
def settings(test_home: Path, tmp_path_factory) -> Settings:
    port = int(os.environ.get("GRAPHWIKI_TEST_BOLT_PORT", "7690"))
    base = Settings.from_env({"NEO4J_PASSWORD": os.environ.get("GRAPHWIKI_TEST_PASSWORD", "graphwiki-test")})
    s = base.with_instance(test_home, port)
    uri = os.environ.get("GRAPHWIKI_TEST_NEO4J_URI")
    if uri:
        from dataclasses import replace

        s = replace(s, neo4j=replace(s.neo4j, uri=uri))
    # LLM cache and sources are per test session, never the user's.
    work = tmp_path_factory.mktemp("graphwiki")
    from dataclasses import replace

    return replace(s, cache_dir=work / "llm-cache", sources_dir=work / "sources")


@pytest.fixture(scope="session")
def embedder():
    from graphwiki_assets.core.embeddings import load_embedder

    return load_embedder("all-MiniLM-L6-v2")
