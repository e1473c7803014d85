"""Find a Java runtime Neo4j 5 can run on (17 or newer)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

MIN_JAVA = 17


class JavaError(RuntimeError):
    pass


def java_major(java: str) -> int:
    out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60)
    match = re.search(r'version "(\d+)(?:\.(\d+))?', out.stderr + out.stdout)
    if not match:
        raise JavaError(f"could not read the version of {java}: {out.stderr.strip()[:200]}")
    major = int(match.group(1))
    return int(match.group(2)) if major == 1 and match.group(2) else major


def find_java() -> str:
    """JAVA_HOME first, then PATH; Neo4j 5.26 needs Java 17+."""
    candidates = []
    if os.environ.get("JAVA_HOME"):
        candidates.append(str(Path(os.environ["JAVA_HOME"]) / "bin" / "java"))
    on_path = shutil.which("java")
    if on_path:
        candidates.append(on_path)
    for java in candidates:
        if Path(java).exists() and java_major(java) >= MIN_JAVA:
            return java
    if candidates:
        raise JavaError(f"Neo4j needs Java {MIN_JAVA} or newer; found only {', '.join(candidates)}. Set JAVA_HOME.")
    raise JavaError(f"Java {MIN_JAVA}+ is not installed (no JAVA_HOME and no `java` on PATH).")
