"""The deployment files, checked where no container engine or cluster can run them.

docker-compose.yml: it parses, the default services stay as they were, the profiles hold the
services the README names, every file a service mounts or reads exists, the cluster services
reach each other by the names and ports their config files use, and every variable it reads
is documented. deploy/helm/values.yaml: it parses and uses only keys of the official Dagster
chart (tests/support/dagster_chart_keys.yaml), reaches Neo4j by a routing URI and takes its
credentials from Kubernetes secrets only.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import dagster as dg
import pytest
import yaml
from dagster._core.instance.config import dagster_instance_config
from dagster._core.workspace.config_schema import ensure_workspace_config

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
HELM_VALUES = ROOT / "deploy" / "helm" / "values.yaml"
CHART_KEYS = ROOT / "tests" / "support" / "dagster_chart_keys.yaml"

DEFAULT_SERVICES = {"neo4j", "serve", "dagster"}
PROFILES = {
    "cluster": {"postgres", "code-location", "dagster-webserver", "dagster-daemon"},
    "embeddings": {"embeddings"},
}
# ${NAME}, ${NAME:-default}, ${NAME:?message}; `$$` escapes a literal dollar for the container
VARIABLE = re.compile(r"(?<!\$)\$\{([A-Z_][A-Z0-9_]*)")


def _compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text())


def _services() -> dict[str, dict[str, Any]]:
    return _compose()["services"]


def _option(command: list[str], flag: str) -> str:
    return command[command.index(flag) + 1]


def test_the_default_services_run_without_a_profile_and_need_no_profiled_one():
    services = _services()
    default = {name for name, spec in services.items() if not spec.get("profiles")}
    assert default == DEFAULT_SERVICES
    for name in default:
        assert set(services[name].get("depends_on", {})) <= default, name


def test_each_profile_holds_the_services_it_documents():
    services = _services()
    for profile, names in PROFILES.items():
        assert {n for n, spec in services.items() if profile in spec.get("profiles", [])} == names
        assert f"- {profile}:" in COMPOSE.read_text()  # described in the file's header


def test_every_file_a_service_builds_from_or_mounts_exists():
    for name, spec in _services().items():
        if "build" in spec:
            assert (ROOT / spec["build"] / "Dockerfile").is_file(), name
        for volume in spec.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith("./") and not source.startswith("./data/"):  # data/ is the user's
                assert (ROOT / source).exists(), f"{name} mounts {source}"


def test_the_cluster_webserver_and_daemon_read_a_workspace_that_points_at_the_code_server():
    services = _services()
    code_server = services["code-location"]["command"]
    assert code_server[:3] == ["dagster", "code-server", "start"]
    assert _option(code_server, "-m") == "graphwiki_assets.definitions"
    for name in ("dagster-webserver", "dagster-daemon"):
        workspace_file = _option(services[name]["command"], "-w")
        assert (ROOT / workspace_file).is_file()
        mounted = {v.split(":")[1] for v in services[name]["volumes"]}
        assert f"/app/{workspace_file}" in mounted  # the image's WORKDIR is /app
        (server,) = yaml.safe_load((ROOT / workspace_file).read_text())["load_from"]
        assert server["grpc_server"]["host"] == "code-location"
        assert str(server["grpc_server"]["port"]) == _option(code_server, "-p")


def test_the_instance_config_reads_postgres_settings_the_cluster_services_set():
    instance = yaml.safe_load((ROOT / "deploy" / "dagster.yaml").read_text())
    needed = {v["env"] for v in instance["storage"]["postgres"]["postgres_db"].values() if isinstance(v, dict)}
    assert needed == {
        "DAGSTER_POSTGRES_HOST",
        "DAGSTER_POSTGRES_USER",
        "DAGSTER_POSTGRES_PASSWORD",
        "DAGSTER_POSTGRES_DB",
    }
    services = _services()
    for name in PROFILES["cluster"] - {"postgres"}:
        environment = services[name]["environment"]
        assert needed <= set(environment), name
        assert environment["DAGSTER_POSTGRES_HOST"] == "postgres"
        assert "/data/dagster/dagster.yaml" in {v.split(":")[1] for v in services[name]["volumes"]}


def test_dagster_accepts_the_instance_and_workspace_files(tmp_path, monkeypatch):
    # Dagster's own config schemas; no Postgres is reached to check them
    for name in ("DAGSTER_POSTGRES_HOST", "DAGSTER_POSTGRES_USER", "DAGSTER_POSTGRES_PASSWORD", "DAGSTER_POSTGRES_DB"):
        monkeypatch.setenv(name, "checked")
    (tmp_path / "dagster.yaml").write_text((ROOT / "deploy" / "dagster.yaml").read_text())
    config, _ = dagster_instance_config(str(tmp_path))
    assert config["run_coordinator"]["class"] == "QueuedRunCoordinator"
    workspace = ROOT / "deploy" / "workspace.yaml"
    ensure_workspace_config(yaml.safe_load(workspace.read_text()), str(workspace))
    (tmp_path / "dagster.yaml").write_text("storage:\n  postgress: {}\n")  # misspelt: refused
    with pytest.raises(dg.DagsterInvalidConfigError):
        dagster_instance_config(str(tmp_path))


def test_every_variable_the_compose_file_reads_is_documented():
    text = COMPOSE.read_text()
    comments = "\n".join(line for line in text.splitlines() if line.lstrip().startswith("#"))
    readme = (ROOT / "README.md").read_text()
    for name in sorted(set(VARIABLE.findall(text))):
        assert f"`{name}`" in readme or name in comments, (
            f"{name} is documented neither in README nor in the compose file"
        )


def test_the_image_installs_the_deployment_extra_pinned_to_the_dagster_release():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    dagster = next(d for d in project["dependencies"] if d.startswith("dagster=="))
    major, minor, patch = dagster.removeprefix("dagster==").split(".")
    library = f"0.{int(minor) + 16}.{patch}"  # Dagster's libraries: 1.13.27 -> 0.29.27
    assert set(project["optional-dependencies"]["k8s"]) == {f"dagster-k8s=={library}", f"dagster-postgres=={library}"}
    assert f"dagster-k8s=={library}" in project["optional-dependencies"]["dev"]
    assert '".[k8s]"' in (ROOT / "Dockerfile").read_text()


def _unknown_keys(values: Any, allowed: Any, path: str = "") -> list[str]:
    if allowed is None:  # free-form below this key
        return []
    if isinstance(allowed, list):
        return [k for i, item in enumerate(values) for k in _unknown_keys(item, allowed[0], f"{path}[{i}]")]
    unknown = [f"{path}.{k}".lstrip(".") for k in values if k not in allowed]
    return unknown + [
        k for key, v in values.items() if key in allowed for k in _unknown_keys(v, allowed[key], f"{path}.{key}")
    ]


def test_the_helm_values_use_only_keys_of_the_official_chart():
    values = yaml.safe_load(HELM_VALUES.read_text())
    assert _unknown_keys(values, yaml.safe_load(CHART_KEYS.read_text())) == []


def test_the_key_check_catches_a_misspelt_key():
    allowed = yaml.safe_load(CHART_KEYS.read_text())
    misspelt = {"runLauncher": {"type": "K8sRunLauncher", "config": {"k8sRunLauncher": {"envSecret": []}}}}
    assert _unknown_keys(misspelt, allowed) == ["runLauncher.config.k8sRunLauncher.envSecret"]
    assert _unknown_keys({"dagster-user-deployments": {"deployments": [{"module": "x"}]}}, allowed) == [
        "dagster-user-deployments.deployments[0].module"
    ]


def test_the_helm_values_run_graphwiki_with_the_k8s_launcher_against_a_routed_neo4j():
    values = yaml.safe_load(HELM_VALUES.read_text())
    assert values["runLauncher"]["type"] == "K8sRunLauncher"
    (deployment,) = values["dagster-user-deployments"]["deployments"]
    args = deployment["codeServerArgs"]
    assert args[args.index("--module-name") + 1] == "graphwiki_assets.definitions"
    env = {e["name"]: e for e in deployment["env"]}
    assert env["NEO4J_URI"]["value"].split("://")[0] in {"neo4j", "neo4j+s", "neo4j+ssc"}  # routing schemes
    secrets = {s["name"] for s in deployment["envSecrets"]} | {
        s["name"] for s in values["runLauncher"]["config"]["k8sRunLauncher"]["envSecrets"]
    }
    assert "graphwiki-neo4j" in secrets


def test_no_credential_is_written_into_the_helm_values():
    values = yaml.safe_load(HELM_VALUES.read_text())
    (deployment,) = values["dagster-user-deployments"]["deployments"]
    names = {e["name"] for e in deployment["env"]}
    assert not {n for n in names if n.endswith(("PASSWORD", "API_KEY", "TOKEN"))}
    assert "postgresqlPassword" not in values.get("postgresql", {})
