"""The audit log: every ingest batch, question, filed answer, review, resolve and lint run
appends one entry (who, when, backend, inputs by id or hash, outputs by id); entries are
never rewritten, and work that did not commit leaves none."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import graphwiki_assets
from graphwiki_assets.core.audit import Entry, append, read_entries
from graphwiki_assets.core.ingest import commit
from graphwiki_assets.core.lint.report import run_lint
from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.query import ask
from graphwiki_assets.core.query.filed import file_answer
from graphwiki_assets.core.review.decide import confirm
from graphwiki_assets.core.review.resolve import resolve_dispute
from graphwiki_assets.core.sources import sha256_text
from tests.support.clean_graph import NOW, plant_clean_graph
from tests.support.ingest import SMOKE_TEXTS, ingest, write_sources


def entries(store, action: str | None = None) -> list[dict]:
    return [e.as_dict() for e in read_entries(store, action=action, limit=1000)]


def test_each_committed_ingest_batch_is_one_entry_with_its_inputs_and_outputs(store, embedder, settings, tmp_path):
    paths = write_sources(tmp_path / "sources", SMOKE_TEXTS)

    report = ingest(store, embedder, settings, paths, cache=False, batch_size=2)

    logged = entries(store, "ingest")
    assert len(logged) == report.batches == 2
    shas = {sha256_text(p.read_text(encoding="utf-8")) for p in paths}
    assert {s["sha256"] for e in logged for s in e["inputs"]["sources"]} == shas
    sources = {r["id"] for r in store.query("MATCH (s:Source) RETURN s.id AS id")}
    assert {s for e in logged for s in e["outputs"]["sources"]} == sources
    concepts = {r["id"] for r in store.query("MATCH (c:Concept) RETURN c.id AS id")}
    assert {c for e in logged for c in e["outputs"]["concepts_created"]} == concepts
    assert all(e["backend"] == report.backend and e["actor"] for e in logged)


def test_an_unchanged_re_ingest_commits_nothing_and_logs_nothing(store, embedder, settings, tmp_path):
    paths = write_sources(tmp_path / "sources", SMOKE_TEXTS)
    ingest(store, embedder, settings, paths, cache=False)
    before = entries(store)

    ingest(store, embedder, settings, paths, cache=False)

    assert entries(store) == before


def test_a_crash_inside_the_commit_leaves_no_entry_and_nothing_written(
    store, embedder, settings, tmp_path, monkeypatch
):
    paths = write_sources(tmp_path / "sources", SMOKE_TEXTS)

    real = commit.append_in

    def append_then_crash(tx, *logged):
        real(tx, *logged)  # the entry is in the transaction...
        raise RuntimeError("the process died before the commit")  # ...which never commits

    monkeypatch.setattr(commit, "append_in", append_then_crash)
    with pytest.raises(RuntimeError, match="died"):
        ingest(store, embedder, settings, paths, cache=False)

    assert entries(store) == []
    assert store.query("MATCH (n) WHERE n:Source OR n:Concept OR n:Claim RETURN count(n) AS n")[0]["n"] == 0

    monkeypatch.setattr(commit, "append_in", real)
    ingest(store, embedder, settings, paths, cache=False)
    assert len(entries(store, "ingest")) == 1


def test_questions_are_logged_when_someone_asks_and_filing_logs_the_answer(store, embedder, settings, tmp_path):
    ingest(store, embedder, settings, write_sources(tmp_path / "sources", SMOKE_TEXTS), cache=False)
    llm = build_llm(settings.llm)

    ask(store, embedder, llm, "What is Cypher?")  # a program asking for itself: not logged
    assert entries(store, "question") == []
    answer = ask(store, embedder, llm, "What is Cypher?", actor="ana")
    filed = file_answer(store, embedder, answer, actor="ana")

    [question] = entries(store, "question")
    assert (question["actor"], question["inputs"]["question"]) == ("ana", "What is Cypher?")
    assert question["outputs"]["found"] is True
    assert question["outputs"]["citations"] == list(answer.citations)
    [filing] = entries(store, "file_answer")
    assert filing["outputs"]["filed"] == filed


def test_review_resolve_and_lint_each_append_and_the_log_only_grows(store):
    plant_clean_graph(store)
    seen: list[dict] = []

    def grew_by_one(action: str) -> None:
        now = entries(store)
        assert now[: len(seen)] == seen, "an earlier entry was changed or removed"
        assert [e["action"] for e in now[len(seen) :]] == [action]
        seen[:] = now

    confirm(store, "judgment-cql", by="ana", reason="CQL is Cypher", now=NOW)
    grew_by_one("review")
    resolve_dispute(store, "claim-imperative", winner="claim-declarative", by="ben", reason="the manual", now=NOW)
    grew_by_one("resolve")
    run_lint(store, now=NOW, actor="nightly")
    grew_by_one("lint")

    review, resolve, lint = seen
    assert (review["actor"], review["inputs"]["judgment"], review["outputs"]["verdict"]) == (
        "ana",
        "judgment-cql",
        "confirmed",
    )
    assert resolve["outputs"]["superseded"] == "claim-imperative" and resolve["actor"] == "ben"
    assert lint["actor"] == "nightly" and lint["outputs"]["severity"] in ("info", "warning", "error")


def test_a_review_that_is_refused_leaves_no_entry(store):
    plant_clean_graph(store)
    confirm(store, "judgment-cql", now=NOW)

    with pytest.raises(ValueError, match="already reviewed"):
        confirm(store, "judgment-cql", now=NOW)

    assert len(entries(store, "review")) == 1


def test_an_entry_id_is_never_written_twice(store):
    entry = Entry(action="lint", actor="ana", summary="once")
    append(store, entry)

    with pytest.raises(Exception, match="already exists"):
        append(store, entry)
    assert [(e["id"], e["summary"]) for e in entries(store)] == [(entry.id, "once")]


def test_no_statement_in_the_project_updates_or_deletes_a_log_entry():
    package = Path(graphwiki_assets.__file__).parent
    statements = []
    for path in package.rglob("*.py"):
        for triple, single in re.findall(r'"""(.*?)"""|"([^"\n]*)"', path.read_text(encoding="utf-8"), re.S):
            statement = triple or single
            if "LogEntry" in statement and re.search(r"\b(MATCH|CREATE)\b", statement):
                statements.append((path.name, statement))
    assert statements, "the audit log's Cypher was not found"
    for name, statement in statements:
        assert not re.search(r"\b(SET|DELETE|REMOVE|MERGE)\b", statement), f"{name} rewrites the log: {statement}"


def test_graphwiki_log_filters_by_action_and_time(store, cli):  # noqa: F811
    plant_clean_graph(store)
    run_lint(store, actor="nightly")
    confirm(store, "judgment-cql", by="ana")

    code, out = cli("log", "--json", "--action", "lint")
    assert code == 0
    assert [e["actor"] for e in json.loads(out)] == ["nightly"]
    code, out = cli("log", "--since", "1h")
    assert code == 0 and "review" in out and "lint" in out
    code, out = cli("log", "--since", "2999-01-01")
    assert out.strip() == "The audit log has no entries for this."
