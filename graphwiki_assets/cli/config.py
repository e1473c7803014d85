"""`graphwiki config` — the schema config in effect (purpose, taxonomy, thresholds), checked."""

from __future__ import annotations

import argparse
from pathlib import Path

from graphwiki_assets.cli.output import add_common, emit
from graphwiki_assets.core.config.load import PRESETS


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_common(
        sub.add_parser(
            "config",
            help="show and check the schema config (graphwiki.yaml)",
            description="Prints the schema config in effect: where it was found (GRAPHWIKI_CONFIG, "
            "$GRAPHWIKI_HOME/graphwiki.yaml, ./graphwiki.yaml, else the general-text preset), its version, "
            "purpose, entity types and thresholds. Exits 2 when the file is invalid.",
        )
    )
    parser.add_argument("--check", type=Path, metavar="FILE", help="check this file instead of the one in effect")
    parser.add_argument("--preset", choices=PRESETS, help="print a bundled preset's YAML, to copy and edit")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.config import ConfigError, load_config, preset_text
    from graphwiki_assets.core.settings import Settings

    if args.preset:
        print(preset_text(args.preset), end="")
        return 0
    settings = Settings.from_env()
    try:
        loaded = load_config(args.check or settings.config_path, settings.home)
    except ConfigError as exc:
        print(f"graphwiki config: {exc}")
        return 2
    config = loaded.config
    data = {
        "origin": loaded.origin,
        "version": config.version,
        "extraction_version": config.extraction_version,
        **config.model_dump(mode="json"),
    }
    lines = [
        f"schema config {config.version} from {loaded.origin}",
        f"purpose: {config.purpose.description}",
        f"focus: {', '.join(config.purpose.focus) or '(everything)'}; exclude: "
        f"{', '.join(config.purpose.exclude) or '(nothing)'}",
        f"types (fallback: {config.taxonomy.fallback or 'none, off-taxonomy concepts are dropped'}):",
    ]
    lines += [f"  {t.name}: {t.definition}" for t in config.taxonomy.types]
    lines.append("thresholds: " + ", ".join(f"{k} {v}" for k, v in config.thresholds.model_dump().items()))
    emit(args, data, "\n".join(lines))
    return 0
