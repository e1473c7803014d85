"""Finding and reading the schema config, with an error that says what to fix.

Where it comes from, first found wins: an explicit path (``--config`` or
``GRAPHWIKI_CONFIG``), ``$GRAPHWIKI_HOME/graphwiki.yaml``, ``./graphwiki.yaml``, else the
bundled preset for general text. A file that does not parse or validate is refused as a
whole, before any write.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import yaml
from pydantic import ValidationError

from graphwiki_assets.core.config.model import SchemaConfig

FILE_NAME = "graphwiki.yaml"
PRESETS = ("general", "software-architecture")


class ConfigError(ValueError):
    """The schema config cannot be used; the message names the file and each problem."""


@dataclass(frozen=True)
class LoadedConfig:
    config: SchemaConfig
    origin: str  # the file it was read from, or "preset:<name>"


def preset_text(name: str) -> str:
    if name not in PRESETS:
        raise ConfigError(f"no preset {name!r}; presets: {', '.join(PRESETS)}")
    return resources.files("graphwiki_assets.core.config.presets").joinpath(f"{name}.yaml").read_text("utf-8")


def parse(text: str, origin: str) -> SchemaConfig:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{origin} is not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{origin} must be a mapping with purpose, taxonomy and thresholds")
    try:
        return SchemaConfig.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or '(top)'}: {e['msg']}" for e in exc.errors())
        raise ConfigError(f"{origin} is not a valid schema config: {problems}") from None


@lru_cache(maxsize=1)
def default_config() -> SchemaConfig:
    """The bundled preset for general text, used when no graphwiki.yaml is found."""
    return parse(preset_text("general"), "preset:general")


def find_config(explicit: Path | None, home: Path | None) -> Path | None:
    if explicit is not None:
        if not explicit.is_file():
            raise ConfigError(f"the schema config {explicit} does not exist")
        return explicit
    for candidate in ([home / FILE_NAME] if home else []) + [Path.cwd() / FILE_NAME]:
        if candidate.is_file():
            return candidate
    return None


def load_config(explicit: Path | None = None, home: Path | None = None) -> LoadedConfig:
    path = find_config(explicit, home)
    if path is None:
        return LoadedConfig(default_config(), "preset:general")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read the schema config {path}: {exc}") from None
    return LoadedConfig(parse(text, str(path)), str(path))
