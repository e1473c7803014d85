"""The schema config: purpose, entity taxonomy and thresholds, edited by the user."""

from graphwiki_assets.core.config.load import ConfigError, LoadedConfig, default_config, load_config, parse, preset_text
from graphwiki_assets.core.config.model import SchemaConfig, Stamp, Thresholds

__all__ = [
    "ConfigError",
    "LoadedConfig",
    "default_config",
    "SchemaConfig",
    "Stamp",
    "Thresholds",
    "load_config",
    "parse",
    "preset_text",
]
