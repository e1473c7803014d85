"""Build llama.cpp's native ``llama-server`` once and keep it in the user cache.

The source is the llama.cpp tree vendored in the ``llama-cpp-python`` sdist on PyPI (the
registry graphwiki already depends on), so one pinned version names the whole runtime.
The binary lands in ``<cache>/llama.cpp/<version>-<variant>/bin/llama-server``; later starts
reuse it. It is built for the instruction sets the CPU reports, never with ``-march=native``:
that also compiles in Intel AMX tile kernels, and where the kernel or a sandbox has not
granted a process the AMX tile state, the server dies with SIGSEGV on its first matrix
product (seen on a 2-core VM whose CPU lists AMX).
The sources and the build tree stay in ``<version>/work`` until the binary is in place, so an
interrupted build (a timeout, a killed job) resumes where it stopped instead of starting
over. A lock file keeps two processes (a CI fixture and a shell) from building it at once.
"""

from __future__ import annotations

import os
import platform
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from graphwiki_assets.core.processes import file_lock

LLAMA_CPP_PYTHON_VERSION = "0.3.36"
# About 15 minutes on two quiet cores, over an hour on busy ones; a longer wait than this
# means something is wrong (and the work done so far is kept for the next attempt).
BUILD_TIMEOUT_S = 3 * 3600.0
# Part of the cache path: a change to how the binary is built must not reuse an old build.
BUILD_VARIANT = "cpu-noamx"
# ggml's x86 switches, each set when /proc/cpuinfo lists every flag it needs. AMX is left out
# on purpose (see the module docstring); AVX-512 and VNNI are plain vector instructions.
_X86_FEATURES: dict[str, tuple[str, ...]] = {
    "GGML_SSE42": ("sse4_2",),
    "GGML_AVX": ("avx",),
    "GGML_F16C": ("f16c",),
    "GGML_FMA": ("fma",),
    "GGML_AVX2": ("avx2",),
    "GGML_BMI2": ("bmi2",),
    "GGML_AVX_VNNI": ("avx_vnni",),
    "GGML_AVX512": ("avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512cd"),
    "GGML_AVX512_VBMI": ("avx512vbmi",),
    "GGML_AVX512_VNNI": ("avx512_vnni",),
    "GGML_AVX512_BF16": ("avx512_bf16",),
}


class RuntimeBuildError(RuntimeError):
    pass


def runtime_dir(cache_root: Path, version: str = LLAMA_CPP_PYTHON_VERSION) -> Path:
    return cache_root / "llama.cpp" / f"{version}-{BUILD_VARIANT}"


def server_binary(cache_root: Path, version: str = LLAMA_CPP_PYTHON_VERSION) -> Path:
    return runtime_dir(cache_root, version) / "bin" / "llama-server"


def _toolchain() -> tuple[str, str, str | None]:
    """cmake, a C++ compiler and (optionally) ninja, or a clear error naming what is missing."""
    cmake = shutil.which("cmake")
    cxx = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")
    missing = [name for name, found in (("cmake", cmake), ("a C++ compiler (g++ or clang++)", cxx)) if not found]
    if missing:
        raise RuntimeBuildError(
            "building llama-server needs " + " and ".join(missing) + " on PATH; install them "
            "(Debian/Ubuntu: apt-get install cmake g++) and run `graphwiki llm start` again."
        )
    assert cmake is not None and cxx is not None
    return cmake, cxx, shutil.which("ninja")


def _run(cmd: list[str], log_file: Path, cwd: Path, timeout_s: float) -> None:
    with open(log_file, "a") as log:
        log.write(f"$ {' '.join(cmd)}\n")
        log.flush()
        # its own process group, so a timeout stops the compilers too, not only cmake
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait()
            raise RuntimeBuildError(f"`{' '.join(cmd[:3])} …` took over {timeout_s:.0f}s; log {log_file}") from None
    if proc.returncode != 0:
        tail = "\n".join(log_file.read_text(errors="replace").splitlines()[-25:])
        raise RuntimeBuildError(f"`{' '.join(cmd[:3])} …` failed (exit {proc.returncode}); log {log_file}:\n{tail}")


def _fetch_source(work: Path, version: str, log_file: Path) -> Path:
    """The sdist from PyPI through pip, unpacked (once); returns its vendored llama.cpp tree."""
    trees = sorted((work / "src").glob("*/vendor/llama.cpp/CMakeLists.txt"))
    if trees:
        return trees[0].parent
    download = work / "sdist"
    # Only this package as source: `--no-binary :all:` would also build pip's metadata
    # helpers (scikit-build-core and its own build tools) from source, minutes for nothing.
    pip = [sys.executable, "-m", "pip", "download", "--no-binary", "llama-cpp-python", "--no-deps"]
    _run([*pip, "-d", str(download), f"llama-cpp-python=={version}"], log_file, work, 1800)
    archives = sorted(download.glob("llama_cpp_python-*.tar.gz"))
    if not archives:
        raise RuntimeBuildError(f"pip downloaded no llama-cpp-python {version} sdist into {download}")
    with tempfile.TemporaryDirectory(dir=work) as tmp:
        with tarfile.open(archives[0]) as tar:
            tar.extractall(tmp, filter="data")
        Path(tmp).rename(work / "src")  # whole or not at all: a half-unpacked tree is never reused
    trees = sorted((work / "src").glob("*/vendor/llama.cpp"))
    if not trees:
        raise RuntimeBuildError(f"the llama-cpp-python {version} sdist holds no vendor/llama.cpp tree")
    return trees[0]


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> set[str]:
    try:
        text = cpuinfo.read_text(errors="replace")
    except OSError:
        return set()
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.partition(":")[2].split())
    return set()


def isa_options(machine: str, flags: set[str]) -> list[str]:
    """ggml's configure switches for this CPU: ``-march=native`` off, each ISA named instead."""
    if machine.lower() not in ("x86_64", "amd64"):
        return []  # elsewhere (arm64) native tuning carries no AMX and stays the right default
    options = ["-DGGML_NATIVE=OFF", "-DGGML_AMX_TILE=OFF", "-DGGML_AMX_INT8=OFF", "-DGGML_AMX_BF16=OFF"]
    for option, needs in _X86_FEATURES.items():
        options.append(f"-D{option}={'ON' if all(f in flags for f in needs) else 'OFF'}")
    return options


def _compile(source: Path, build: Path, log_file: Path, jobs: int) -> Path:
    cmake, cxx, ninja = _toolchain()
    configure = [cmake, "-S", str(source), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release"]
    configure += ["-G", "Ninja"] if ninja else []
    configure += [f"-DCMAKE_CXX_COMPILER={cxx}"]
    # No network or TLS in the server (it only listens on 127.0.0.1), no tests or examples,
    # and one static binary that the cache can hold on its own.
    for flag in ("LLAMA_CURL", "LLAMA_OPENSSL", "LLAMA_BUILD_TESTS", "LLAMA_BUILD_EXAMPLES", "BUILD_SHARED_LIBS"):
        configure.append(f"-D{flag}=OFF")
    configure += isa_options(platform.machine(), cpu_flags())
    _run(configure, log_file, build.parent, 600)
    _run(
        [cmake, "--build", str(build), "--target", "llama-server", f"-j{jobs}"], log_file, build.parent, BUILD_TIMEOUT_S
    )
    binary = build / "bin" / "llama-server"
    if not binary.exists():
        raise RuntimeBuildError(f"the build finished but left no {binary}; log {log_file}")
    return binary


def ensure_runtime(
    cache_root: Path,
    version: str = LLAMA_CPP_PYTHON_VERSION,
    jobs: int = 2,
    log: Callable[[str], None] = print,
) -> Path:
    """The cached ``llama-server`` binary, built first when it is not there yet."""
    target = server_binary(cache_root, version)
    if target.exists():
        return target
    _toolchain()  # fail before any download when the build could not run anyway
    home = runtime_dir(cache_root, version)
    with file_lock(home.parent / f".{version}.lock"):
        if target.exists():  # another process built it while this one waited
            return target
        home.mkdir(parents=True, exist_ok=True)
        log_file = home / "build.log"
        log(f"building llama-server from llama-cpp-python {version} (about 15 minutes on two cores); log {log_file}")
        started = time.monotonic()
        work = home / "work"
        work.mkdir(exist_ok=True)
        source = _fetch_source(work, version, log_file)
        binary = _compile(source, work / "build", log_file, jobs)
        target.parent.mkdir(parents=True, exist_ok=True)
        staged = target.with_suffix(".partial")
        shutil.copy2(binary, staged)
        staged.replace(target)  # atomic: a half-copied binary is never taken for a built one
        shutil.rmtree(work, ignore_errors=True)
        log(f"llama-server built in {time.monotonic() - started:.0f}s: {target}")
    return target
