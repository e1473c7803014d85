"""Names that are not entities are dropped from every backend's extraction: each rule drops
what it is for and keeps the real names that look closest to it."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.llm.calls import ExtractedClaim, ExtractedConcept, ExtractResponse
from graphwiki_assets.core.llm.not_entities import junk_reason
from graphwiki_assets.core.llm.validation import clean_extract


@pytest.mark.parametrize(
    ("name", "rule"),
    [
        ("18e03f3590bf045c", "identifier"),  # a member id
        ("a81b5818e67a6ea83e9d4daea5ecbc92", "identifier"),  # a hash
        ("550e8400-e29b-41d4-a716-446655440000", "identifier"),  # a UUID
        ("1459287315069521920", "identifier"),  # a status id
        ("C3HD8ARJ5", "identifier"),  # a channel id
        ("u_uFsWOwZSxS5mOmbEprwMUijNhsWd", "identifier"),  # a token
        ("/var/lib/kestrel", "path or url"),
        ("docs/guide/install", "path or url"),
        ("config.yaml", "path or url"),
        ("https://example.org/a", "path or url"),
        ("pkg.example.org/kestrel", "path or url"),
        ("localhost:2379", "path or url"),
        ("1m", "measurement"),
        ("10 ms", "measurement"),
        ("2GB", "measurement"),
        ("50%", "measurement"),
        ("v3.5", "version"),
        ("3.6.0-rc.1", "version"),
        ("Save", "ui label"),
        ("Edit this page", "ui label"),
        ("Download button", "ui label"),
        ("<br>", "markup or code"),
        ("{{< ref >}}", "markup or code"),
        ("--listen-client-urls", "markup or code"),
        ("kestrel --help", "markup or code"),
        ("MEMBER_ID", "markup or code"),
        ("client.Get(ctx)", "markup or code"),
        ("clientv3.New", "markup or code"),
        ("Figure 2", "reference label"),
        ("foo", "placeholder"),
        ("bar2 foo3", "placeholder"),
        ("user name is empty", "clause"),
        ("gRPC-based", "adjective"),
        ("x", "single character"),
        ("...", "punctuation"),
    ],
)
def test_each_rule_drops_what_it_is_for(name, rule):
    assert junk_reason(name) == rule


@pytest.mark.parametrize(
    "name",
    [
        "Neo4j",
        "K8s",
        "EC2",
        "IPv6",
        "Node.js",
        "TCP/IP",
        "HTTP/2",
        "I/O",
        "3D",
        "Route 66",
        "Joe Betz",
        "Alert Manager",
        "gRPC",
        "Go 1.12",
        "Much Ado About Nothing",
    ],
)
def test_real_names_that_look_close_are_kept(name):
    assert junk_reason(name) is None


def test_a_control_typed_as_a_button_is_dropped():
    assert junk_reason("Publish", "button") == "ui label"
    assert junk_reason("Publish", "Product") is None


def test_validation_drops_junk_from_any_backend_and_counts_it():
    response = ExtractResponse(
        concepts=[
            ExtractedConcept(name="Kestrel", type="Software", aliases=["kestrel-db", "/usr/bin/kestrel"]),
            ExtractedConcept(name="a81b5818e67a6ea83e9d4daea5ecbc92", type="Concept"),
            ExtractedConcept(name="10ms", type="Concept"),
        ],
        claims=[
            ExtractedClaim(text="Kestrel stores keys.", about=["Kestrel"]),
            ExtractedClaim(text="The commit a81b5818 took 10ms.", about=["a81b5818e67a6ea83e9d4daea5ecbc92", "10ms"]),
        ],
    )
    clean = clean_extract(response)
    assert [c.name for c in clean.concepts] == ["Kestrel"]
    assert clean.concepts[0].aliases == ["kestrel-db"]  # a path is no name of it either
    assert [c.text for c in clean.claims] == ["Kestrel stores keys."]  # a claim about junk only goes too
    assert clean.dropped == 3  # two concepts and the claim about them


def test_numbered_sample_names_and_format_strings_are_dropped():
    assert junk_reason("node2") == "placeholder"
    assert junk_reason("key1 key5") == "placeholder"
    assert junk_reason("%016x-%016x.snap") == "markup or code"
    assert junk_reason("log4j") is None and junk_reason("Neo4j") is None


def test_hex_literals_underscored_tokens_and_callout_labels_are_dropped():
    assert junk_reason("0xffff") == "identifier"
    assert junk_reason("IPs HOST_1") == "markup or code"
    assert junk_reason("Note") == "ui label" and junk_reason("Warning") == "ui label"
    assert junk_reason("Notes from the Field") is None
