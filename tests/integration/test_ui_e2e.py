"""The Dagster UI as a user meets it, end to end: the webserver and the daemon (`dg dev`)
against a real Neo4j, a new file dropped into the sources folder, the sensor's run and the
lint report that follows it by itself, then the pages a person opens, in headless
Chromium. Screenshots go to ``test-artifacts/ui/`` (or GRAPHWIKI_TEST_ARTIFACTS).

Run alone with ``./scripts/test.sh -m ui``. It needs Debian's chromium and chromedriver,
which ``scripts/test.sh`` installs; without them the test fails, it is never skipped."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from graphwiki_assets.core.evals.instance import free_port
from graphwiki_assets.core.processes import stoppable
from tests.support.paths import REPO_ROOT

pytestmark = [pytest.mark.ui, pytest.mark.timeout(900)]

SAMPLE = REPO_ROOT / "data" / "sources"
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"

LOCATIONS = """{ workspaceOrError { ... on Workspace { locationEntries { name } } } }"""
RUNS = """{ runsOrError { ... on Runs { results { runId status tags { key value } } } } }"""
MATERIALIZED = """query($path: [String!]!) { assetOrError(assetKey: {path: $path}) {
  ... on Asset { assetMaterializations(limit: 50) { runId partition } } } }"""


def _graphql(url: str, query: str, **variables) -> dict:
    request = urllib.request.Request(
        f"{url}/graphql",
        data=json.dumps({"query": query, "variables": variables}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())["data"]


def _wait(what: str, probe, timeout: float, log: Path) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            found = probe()
        except OSError:
            found = None
        if found:
            return found
        time.sleep(3)
    tail = log.read_text(errors="replace")[-3000:] if log.exists() else ""
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}; dg dev said:\n{tail}")


@pytest.fixture
def dagster_ui(settings, store, tmp_path):
    """`dg dev` on a free port over an empty sources folder; yields (url, sources folder, log)."""
    sources = tmp_path / "sources"
    sources.mkdir()
    home = tmp_path / "dagster"
    home.mkdir()
    (home / "dagster.yaml").write_text("telemetry:\n  enabled: false\n")
    port = free_port()
    env = {
        **os.environ,
        "DAGSTER_HOME": str(home),
        "GRAPHWIKI_HOME": str(tmp_path),
        "GRAPHWIKI_SOURCES_DIR": str(sources),
        "GRAPHWIKI_CACHE_DIR": str(tmp_path / "llm-cache"),
        "NEO4J_URI": settings.neo4j.uri,
        "NEO4J_USERNAME": settings.neo4j.username,
        "NEO4J_PASSWORD": settings.neo4j.password,
        "GRAPHWIKI_SENSOR_INTERVAL_S": "5",  # the file is seen, and the lint follows, within seconds
    }
    for key in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):  # the offline backend
        env.pop(key, None)
    log = tmp_path / "dg-dev.log"
    dg = Path(sys.executable).parent / "dg"
    proc = subprocess.Popen(
        [str(dg), "dev", "--port", str(port)],
        cwd=REPO_ROOT,
        env=env,
        stdout=open(log, "wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
        preexec_fn=stoppable,  # a CI job in the background hands SIGINT down ignored; dg dev stops by it
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait("the webserver", lambda: urllib.request.urlopen(f"{url}/server_info", timeout=5).status == 200, 240, log)
        yield url, sources, log
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


@pytest.fixture
def browser():
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).exists()]
    assert not missing, (
        f"{missing} not installed: `apt-get install -y chromium chromium-driver fonts-liberation` "
        "(scripts/test.sh does it)"
    )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1600,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(120)
    yield driver
    driver.quit()


def _artifacts() -> Path:
    folder = Path(os.environ.get("GRAPHWIKI_TEST_ARTIFACTS", REPO_ROOT / "test-artifacts")) / "ui"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _page_text(driver) -> str:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.TAG_NAME, "body").text


def _open(driver, url: str, *expected: str, timeout: float = 90) -> str:
    """Open a page and wait until every expected text is on it; returns the page's text."""
    driver.get(url)
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        _dismiss_dialogs(driver)
        text = _page_text(driver)
        if all(e in text for e in expected):
            return text
        time.sleep(2)
    missing = [e for e in expected if e not in text]
    raise AssertionError(f"{url}: {missing} never appeared; the page said:\n{text[:2000]}")


def _dismiss_dialogs(driver) -> None:
    """A fresh profile is greeted by a dialog (the community invitation); close what is open."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.by import By

    try:
        for dialog in driver.find_elements(By.CSS_SELECTOR, "[role='dialog']"):
            for button in dialog.find_elements(By.TAG_NAME, "button"):
                if button.text.strip().lower() in {"dismiss", "skip", "not now", "close", "no thanks", "done"}:
                    button.click()
                    return
    except WebDriverException:
        pass  # the page re-rendered meanwhile; the next look sees it


def test_a_new_file_runs_through_the_sensor_and_the_ui_shows_its_lineage_checks_and_lint(dagster_ui, browser):
    url, sources, log = dagster_ui
    new = sources / "cypher.md"
    shutil.copy(SAMPLE / "cypher.md", new)  # what a user does: drop a file into the folder

    def sensor_run():
        runs = _graphql(url, RUNS)["runsOrError"]["results"]
        mine = [r for r in runs if {"key": "graphwiki/sources", "value": "1"} in r["tags"]]
        failed = [r for r in mine if r["status"] in ("FAILURE", "CANCELED")]
        assert not failed, f"the sensor's run failed: {failed}"
        return [r for r in mine if r["status"] == "SUCCESS"]

    [run] = _wait("the sensor's run to succeed", sensor_run, 420, log)
    tags = {t["key"]: t["value"] for t in run["tags"]}
    assert tags["graphwiki/llm"].startswith("offline-") and tags["dagster/sensor_name"] == "sources_sensor"
    # the lint report and the GDS projection follow the ingest by themselves (automation sensor)
    for asset in ("lint_report", "graph_projection"):
        _wait(
            f"{asset} to be materialised after the ingest",
            lambda asset=asset: _graphql(url, MATERIALIZED, path=[asset])["assetOrError"]["assetMaterializations"],
            300,
            log,
        )

    shots = _artifacts()
    [location] = [e["name"] for e in _graphql(url, LOCATIONS)["workspaceOrError"]["locationEntries"]]
    text = _open(
        browser,
        f"{url}/locations/{location}/asset-groups/ingest",
        "sources",
        "extracted_candidates",
        "resolved_concepts",
        "claim_links",
        "summaries",
        "4 Passed",
    )
    browser.save_screenshot(str(shots / "1-ingest-asset-group.png"))

    text = _open(
        browser,
        f"{url}/assets/claim_links?view=checks",
        "provenance_complete",
        "no_dangling_references",
        "disputed_iff_contradicted",
        "source_text_unchanged",
        "Passed",
    )
    browser.save_screenshot(str(shots / "2-claim-links-checks.png"))
    assert "Failed" not in text and "This is a blocking asset check." in text

    text = _open(browser, f"{url}/assets/claim_links?view=partitions", "cypher.md")
    browser.save_screenshot(str(shots / "3-claim-links-partition.png"))

    text = _open(
        browser, f"{url}/assets/lint_report", "lint_report", "orphan_rate", "provenance_completeness", "after_ingest"
    )
    browser.save_screenshot(str(shots / "4-lint-report.png"))
    assert "Never materialized" not in text

    text = _open(browser, f"{url}/runs/{run['runId']}", run["runId"][:8], "RUN_SUCCESS", "ASSET_MATERIALIZATION")
    browser.save_screenshot(str(shots / "5-sensor-run.png"))
