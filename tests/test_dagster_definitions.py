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
    assert {"provenance_complete", "no_dangling_references", "disputed_iff_contradicted",
            "source_text_unchanged"} <= names
    for key in specs:
        assert repo.asset_graph.get_check_spec(key).blocking


def test_the_sources_sensor_targets_the_ingest_job_and_runs_by_default():
    defs = _defs()
    sensor = defs.resolve_sensor_def("sources_sensor")
    assert sensor.default_status == dg.DefaultSensorStatus.RUNNING
    assert sensor.job_name == "ingest_sources"


def test_sensor_adds_partitions_for_new_files_and_requests_runs_for_changes(tmp_path):
    from graphwiki_assets.defs.ingest.sensors import sources_sensor
    from graphwiki_assets.defs.resources import GraphwikiConfig

    (tmp_path / "a.md").write_text("# A\nAlpha is a letter.")
    (tmp_path / "notes.bin").write_bytes(b"\x00\x01")  # not a source type: ignored
    instance = dg.DagsterInstance.ephemeral()
    config = GraphwikiConfig(home=str(tmp_path), sources_dir=str(tmp_path))

    first = sources_sensor(dg.build_sensor_context(instance=instance, resources={"graphwiki": config}))
    assert [r.partition_key for r in first.run_requests] == ["a.md"]
    assert first.dynamic_partitions_requests[0].partition_keys == ["a.md"]
    instance.add_dynamic_partitions("sources", ["a.md"])

    unchanged = sources_sensor(dg.build_sensor_context(instance=instance, cursor=first.cursor,
                                                       resources={"graphwiki": config}))
    assert unchanged.run_requests == [] and not unchanged.dynamic_partitions_requests

    (tmp_path / "a.md").write_text("# A\nAlpha is the first letter.")
    (tmp_path / "b.md").write_text("# B\nBeta is a letter.")
    changed = sources_sensor(dg.build_sensor_context(instance=instance, cursor=first.cursor,
                                                     resources={"graphwiki": config}))
    assert sorted(r.partition_key for r in changed.run_requests) == ["a.md", "b.md"]
    assert changed.dynamic_partitions_requests[0].partition_keys == ["b.md"]
