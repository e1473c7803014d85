"""The Dagster code location loads, with its resources, lineage, sensor and jobs."""

from __future__ import annotations

import dagster as dg

from graphwiki_assets.definitions import defs as build_defs


def _defs() -> dg.Definitions:
    return build_defs() if callable(build_defs) else build_defs


def test_definitions_load_and_list_the_resources():
    defs = _defs()
    defs.validate_loadable(defs)
    resources = defs.resources or {}
    assert {"neo4j", "embeddings", "llm", "graphwiki"} <= set(resources)


def test_ingest_assets_form_one_lineage_partitioned_by_source():
    repo = _defs().get_repository_def()
    graph = repo.asset_graph
    chain = ["sources", "extracted_candidates", "resolved_concepts", "claim_links", "summaries"]
    for upstream, downstream in zip(chain, chain[1:]):
        assert dg.AssetKey(upstream) in graph.get(dg.AssetKey(downstream)).parent_keys
    for name in chain:
        node = graph.get(dg.AssetKey(name))
        assert node.group_name == "ingest"
        assert isinstance(node.partitions_def, dg.DynamicPartitionsDefinition)


def test_verify_gates_are_blocking_checks_on_claim_links():
    repo = _defs().get_repository_def()
    specs = [spec for spec in repo.asset_graph.asset_check_keys if spec.asset_key == dg.AssetKey("claim_links")]
    names = {key.name for key in specs}
    assert {
        "provenance_complete",
        "no_dangling_references",
        "disputed_iff_contradicted",
        "source_text_unchanged",
    } <= names
    for key in specs:
        assert repo.asset_graph.get_check_spec(key).blocking


def test_an_ingest_brings_the_projection_signatures_and_lint_report_up_to_date_by_itself():
    defs = _defs()
    assert defs.resolve_sensor_def("after_ingest").default_status == dg.DefaultSensorStatus.RUNNING
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("sources", ["a.md", "b.md"])
    derived = {dg.AssetKey(k) for k in ("graph_projection", "shape_signatures", "lint_report")}
    requested = lambda result: {k for k in derived if result.get_num_requested(k)}  # noqa: E731
    tick = dg.evaluate_automation_conditions(defs=defs, instance=instance)
    for partition in ("a.md", "b.md"):  # a run wrote two sources
        instance.report_runless_asset_event(dg.AssetMaterialization("claim_links", partition=partition))
    tick = dg.evaluate_automation_conditions(defs=defs, instance=instance, cursor=tick.cursor)
    assert requested(tick) == derived
    assert all(tick.get_num_requested(k) == 1 for k in derived)  # each once, not once per source
    for key in derived:
        instance.report_runless_asset_event(dg.AssetMaterialization(key))
    tick = dg.evaluate_automation_conditions(defs=defs, instance=instance, cursor=tick.cursor)
    assert requested(tick) == set()  # up to date: nothing more until the next ingest


def test_the_sources_sensor_targets_the_ingest_job_and_runs_by_default():
    defs = _defs()
    sensor = defs.resolve_sensor_def("sources_sensor")
    assert sensor.default_status == dg.DefaultSensorStatus.RUNNING
    assert sensor.job_name == "ingest_sources"


def test_both_sensors_look_every_30_seconds_unless_the_environment_says_otherwise(monkeypatch):
    monkeypatch.delenv("GRAPHWIKI_SENSOR_INTERVAL_S", raising=False)
    defs = _defs()
    assert {defs.resolve_sensor_def(n).minimum_interval_seconds for n in ("sources_sensor", "after_ingest")} == {30}
    monkeypatch.setenv("GRAPHWIKI_SENSOR_INTERVAL_S", "5")
    defs = _defs()  # read when the code location loads
    assert {defs.resolve_sensor_def(n).minimum_interval_seconds for n in ("sources_sensor", "after_ingest")} == {5}


def _sensor(instance, config, neo4j, cursor=None):
    from graphwiki_assets.defs.ingest.sensors import sources_sensor
    from graphwiki_assets.defs.resources import LLMResource

    return sources_sensor(30)(
        dg.build_sensor_context(
            instance=instance, cursor=cursor, resources={"graphwiki": config, "neo4j": neo4j, "llm": LLMResource()}
        )
    )


def _ranges(result) -> list[tuple[str, str]]:
    return [
        (r.tags["dagster/asset_partition_range_start"], r.tags["dagster/asset_partition_range_end"])
        for r in result.run_requests
    ]


def test_sensor_adds_partitions_for_new_files_and_requests_one_run_per_stretch_of_them(store, settings, tmp_path):
    from graphwiki_assets.defs.resources import GraphwikiConfig, Neo4jResource

    (tmp_path / "a.md").write_text("# A\nAlpha is a letter.")
    (tmp_path / "b.md").write_text("# B\nBeta is a letter.")
    (tmp_path / "notes.bin").write_bytes(b"\x00\x01")  # not a source type: ignored
    instance = dg.DagsterInstance.ephemeral()
    config = GraphwikiConfig(home=str(tmp_path), sources_dir=str(tmp_path))
    neo4j = Neo4jResource(uri=settings.neo4j.uri, username=settings.neo4j.username, password=settings.neo4j.password)

    first = _sensor(instance, config, neo4j)
    assert _ranges(first) == [("a.md", "b.md")]  # two new files, one run
    tags = first.run_requests[0].tags  # what the runs list shows about the run
    assert tags["graphwiki/sources"] == "2" and tags["graphwiki/llm"].startswith("offline-")
    assert tags["graphwiki/batch"] == str(config.ingest_batch)
    assert first.dynamic_partitions_requests[0].partition_keys == ["a.md", "b.md"]
    instance.add_dynamic_partitions("sources", ["a.md", "b.md"])

    unchanged = _sensor(instance, config, neo4j, first.cursor)
    assert isinstance(unchanged, dg.SkipReason)

    (tmp_path / "b.md").write_text("# B\nBeta is the second letter.")
    (tmp_path / "c.md").write_text("# C\nGamma is a letter.")
    changed = _sensor(instance, config, neo4j, first.cursor)
    assert _ranges(changed) == [("b.md", "c.md")]
    assert changed.dynamic_partitions_requests[0].partition_keys == ["c.md"]


def test_sensor_starts_no_run_for_files_whose_text_the_graph_already_holds(store, embedder, settings, tmp_path):
    from graphwiki_assets.defs.resources import GraphwikiConfig, Neo4jResource
    from tests.support.ingest import SMOKE_TEXTS, ingest, write_sources

    paths = write_sources(tmp_path, SMOKE_TEXTS)
    ingest(store, embedder, settings, paths)  # the CLI's path, outside Dagster
    (tmp_path / "new.md").write_text("# Delta\nDelta is a letter.")
    instance = dg.DagsterInstance.ephemeral()
    config = GraphwikiConfig(home=str(tmp_path), sources_dir=str(tmp_path))
    neo4j = Neo4jResource(uri=settings.neo4j.uri, username=settings.neo4j.username, password=settings.neo4j.password)

    result = _sensor(instance, config, neo4j)
    assert _ranges(result) == [("new.md", "new.md")]
    reported = {(e.asset_key.path[-1], e.partition) for e in result.asset_events}
    assert ("claim_links", "cypher.md") in reported and ("sources", "gds.md") in reported
    assert not any(partition == "new.md" for _, partition in reported)


def test_ranges_cut_stretches_at_the_run_size():
    from graphwiki_assets.defs.ingest.sensors import ranges

    keys = [f"k{i}" for i in range(7)]
    assert ranges(keys, {"k0", "k1", "k3", "k4", "k5", "k6"}, limit=3) == [
        ("k0", "k1", 2),
        ("k3", "k5", 3),
        ("k6", "k6", 1),
    ]
    assert ranges(keys, set()) == []


def test_every_setting_the_cli_reads_reaches_the_dagster_resources(monkeypatch, tmp_path):
    from graphwiki_assets.core.settings import ENV_VARS, Settings
    from graphwiki_assets.defs.resources import resources_for

    for name in ENV_VARS.values():
        monkeypatch.delenv(name, raising=False)
    env = {
        "GRAPHWIKI_HOME": str(tmp_path),
        "NEO4J_DATABASE": "other",
        "NEO4J_URI": "bolt://db.example:7000",
        "GRAPHWIKI_LLM_TIMEOUT": "12.5",
        "GRAPHWIKI_LLM_MAX_RETRIES": "2",
        "GRAPHWIKI_LLM_CONCURRENCY": "3",
        "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
        "GRAPHWIKI_INGEST_BATCH": "7",
        "GRAPHWIKI_CONFIG": str(tmp_path / "graphwiki.yaml"),
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    cli = Settings.from_env()
    with dg.build_resources(resources_for("neo4j", "embeddings", "llm", "graphwiki")) as res:
        dagster = res.graphwiki.settings(res.neo4j, res.embeddings, res.llm)
    assert dagster == cli  # the launcher's own settings (heap, page cache) are the defaults on both sides
