"""Each setting is declared once: the CLI's reading of the environment and the Dagster
resources' fields both come from that declaration."""

from __future__ import annotations

import dataclasses

import pytest

from graphwiki_assets.core.setting_fields import WHAT, described, with_values
from graphwiki_assets.core.settings import ENV_VARS, LLMSettings, Settings
from graphwiki_assets.defs.resources import RESOURCES, SETTING

# A valid value for each kind of setting, different from every default.
SAMPLE = {int: "3", float: "2.5", str: "something-else", bool: "local"}


def _sample(path: str) -> str:
    declaration = described(Settings, path)
    if "Path" in str(declaration.type):
        return "/tmp/graphwiki-declared"
    if path == "llm.verdicts":
        return "scored"
    if path == "ingest_draft":
        return "off"
    for kind, value in SAMPLE.items():
        if kind.__name__ in str(declaration.type):
            return value
    raise AssertionError(f"no sample for {path} ({declaration.type})")


@pytest.mark.parametrize("path", sorted(ENV_VARS))
def test_every_declared_variable_is_read_by_the_cli(path):
    name = ENV_VARS[path]
    plain = Settings.from_env({})
    read = Settings.from_env({name: _sample(path)})
    value = read
    for part in path.split("."):
        value, plain = getattr(value, part), getattr(plain, part)
    assert value != plain, f"{name} set, but {path} kept its default"


def test_every_resource_field_takes_its_default_and_description_from_the_declaration():
    for resource in RESOURCES.values():
        for name, field in resource.model_fields.items():
            path = field.json_schema_extra[SETTING]  # every field is a setting
            declaration = described(Settings, path)
            assert field.description == f"{declaration.metadata[WHAT]} ({ENV_VARS[path]})", name


def test_an_unknown_value_is_refused_with_the_variable_named():
    with pytest.raises(ValueError, match="GRAPHWIKI_LLM_CONCURRENCY must be at least 1"):
        Settings.from_env({"GRAPHWIKI_LLM_CONCURRENCY": "0"})
    with pytest.raises(ValueError, match="GRAPHWIKI_LLM_TIMEOUT must be a number"):
        Settings.from_env({"GRAPHWIKI_LLM_TIMEOUT": "soon"})
    with pytest.raises(ValueError, match="GRAPHWIKI_LLM_VERDICTS must be one of"):
        Settings.from_env({"GRAPHWIKI_LLM_VERDICTS": "maybe"})
    with pytest.raises(ValueError, match="GRAPHWIKI_INGEST_DRAFT must be auto, on, ahead or off"):
        Settings.from_env({"GRAPHWIKI_INGEST_DRAFT": "sometimes"})
    with pytest.raises(ValueError, match="GRAPHWIKI_LLM must be 'local'"):
        Settings.from_env({"GRAPHWIKI_LLM": "remote"})


def test_values_by_place_replace_only_what_they_name_and_empty_values_keep_the_old():
    base = Settings.from_env({"GRAPHWIKI_HOME": "/tmp/gw-home"})
    changed = with_values(
        base, {"llm.model": "other", "llm.api_key": "", "cache_dir": None, "config_path": "/tmp/x.yaml"}
    )
    assert changed.llm == dataclasses.replace(base.llm, model="other")
    assert changed.cache_dir == base.cache_dir
    assert str(changed.config_path) == "/tmp/x.yaml"
    assert changed.neo4j == base.neo4j


def test_a_secret_never_appears_in_a_repr():
    settings = Settings.from_env({"OPENAI_API_KEY": "sk-secret", "NEO4J_PASSWORD": "pw-secret"})
    assert "sk-secret" not in repr(settings) and "pw-secret" not in repr(settings)
    assert "sk-secret" not in repr(LLMSettings(api_key="sk-secret"))
