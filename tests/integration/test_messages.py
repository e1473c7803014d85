"""Errors a user can act on: every refused file is named with its reason, a path named on the
command line that fails makes the command fail (after the rest is ingested), and limits say
which variable moves them."""

from __future__ import annotations

import json
import os

import pytest

from graphwiki_assets.cli.main import main
from graphwiki_assets.core.settings import Settings
from graphwiki_assets.core.sources import collect
from graphwiki_assets.core.store.driver import GraphStore, GraphUnavailable
from tests.support.ingest import SMOKE_TEXTS, write_sources


@pytest.fixture
def ingest_cli(settings, tmp_path, monkeypatch, capsys):
    """`graphwiki ingest --json ...` in this process, with the environment a user's shell
    would give it: (exit code, the JSON report or None, stderr)."""

    def run(*args, **env) -> tuple[int, dict | None, str]:
        full = {
            "NEO4J_URI": settings.neo4j.uri,
            "NEO4J_PASSWORD": settings.neo4j.password,
            "GRAPHWIKI_HOME": str(tmp_path / "home"),
            "GRAPHWIKI_CACHE_DIR": str(tmp_path / "cache"),
            **env,
        }
        for name, value in full.items():
            monkeypatch.setenv(name, value)
        code = main(["ingest", "--json", *map(str, args)])
        out, err = capsys.readouterr()
        return code, (json.loads(out) if out.strip().startswith("{") else None), err

    return run


def test_named_paths_that_cannot_be_read_are_named_and_the_rest_is_ingested(store, ingest_cli, tmp_path):
    good = write_sources(tmp_path / "src", {"good.md": SMOKE_TEXTS["cypher.md"]})[0]
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere.md")
    code, report, _ = ingest_cli(good, tmp_path / "missing.md", tmp_path / "loop", tmp_path / "dangling")
    assert code == 1  # named paths failed, although the good file went in
    assert report["sources"]["new"] == 1
    reasons = {os.path.basename(p["path"]): p["reason"] for p in report["problems"]}
    assert reasons["missing.md"] == "no such file or folder"
    assert "loop" in reasons["loop"] and "broken" in reasons["dangling"]


def test_a_bad_file_inside_a_named_folder_is_reported_but_the_folder_succeeds(store, ingest_cli, tmp_path):
    folder = tmp_path / "src"
    write_sources(folder, {"good.md": SMOKE_TEXTS["gds.md"]})
    (folder / "empty.md").write_text("  \n")
    code, report, _ = ingest_cli(folder)
    assert code == 0 and report["sources"]["new"] == 1
    assert report["problems"] == [
        {"path": str(folder / "empty.md"), "status": "skipped", "reason": "empty file (nothing to ingest)"}
    ]


def test_the_size_limit_is_the_variable_its_message_names(store, ingest_cli, tmp_path):
    big = write_sources(tmp_path / "src", {"big.md": "# Big\n\n" + "Kortel makes disks. " * 20})[0]
    code, report, _ = ingest_cli(big, GRAPHWIKI_MAX_SOURCE_BYTES="100")
    assert code == 1
    [problem] = report["problems"]
    assert "too large" in problem["reason"] and "GRAPHWIKI_MAX_SOURCE_BYTES" in problem["reason"]


def test_a_source_over_its_call_budget_is_refused_before_any_call(store, ingest_cli, tmp_path):
    sentences = " ".join(f"Probe {i} measures the salinity of the Orrin estuary." for i in range(600))
    paths = write_sources(tmp_path / "src", {"long.md": f"# Probes\n\n{sentences}", "short.md": SMOKE_TEXTS["gds.md"]})
    code, report, _ = ingest_cli(*paths, GRAPHWIKI_MAX_CALLS_PER_SOURCE="2")
    assert code == 1 and report["sources"]["new"] == 1
    [problem] = report["problems"]
    assert problem["path"].endswith("long.md") and "GRAPHWIKI_MAX_CALLS_PER_SOURCE" in problem["reason"]
    assert report["llm_by_task"]["extract"]["calls"] == 1  # only the short source's


def test_an_invalid_setting_is_refused_with_its_name():
    with pytest.raises(ValueError, match="GRAPHWIKI_INGEST_BATCH must be at least 1"):
        Settings.from_env({"GRAPHWIKI_INGEST_BATCH": "0"})
    with pytest.raises(ValueError, match="GRAPHWIKI_LLM_CONCURRENCY must be a whole number"):
        Settings.from_env({"GRAPHWIKI_LLM_CONCURRENCY": "many"})


def test_a_wrong_password_says_which_variable_to_set(store, settings):
    from dataclasses import replace

    with GraphStore(replace(settings.neo4j, password="not-the-password")) as wrong:
        with pytest.raises(GraphUnavailable, match="NEO4J_PASSWORD"):
            wrong.query("RETURN 1")


def test_collect_names_what_it_cannot_use(tmp_path):
    (tmp_path / "a.md").write_text("# A\n\nAlpha.")
    files, refused, named = collect([tmp_path / "a.md", tmp_path / "nope", tmp_path])
    assert files == [tmp_path / "a.md", tmp_path / "a.md"] and named == {str(tmp_path / "a.md")}
    assert [(r.path, r.reason) for r in refused] == [(str(tmp_path / "nope"), "no such file or folder")]
