"""Fetch Neo4j Community and the Graph Data Science plugin from Maven Central.

Neo4j 5's server entry point lives in ``org.neo4j:neo4j``; GDS is published as
``org.neo4j.gds:*`` modules. Maven resolves both into one consistent dependency set,
then we split it: GDS jars go to ``plugins/`` (Neo4j only scans that folder for
procedures), everything else to ``lib/``. The result is cached per version pair.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from graphwiki_assets.core.settings import user_cache_dir

NEO4J_VERSION = "5.26.30"
GDS_VERSION = "2.13.9"
_COMPLETE_MARKER = ".complete"


class DistributionError(RuntimeError):
    pass


@dataclass(frozen=True)
class Distribution:
    root: Path
    neo4j_version: str
    gds_version: str

    @property
    def lib(self) -> Path:
        return self.root / "lib"

    @property
    def plugins(self) -> Path:
        return self.root / "plugins"

    @property
    def classpath(self) -> str:
        return f"{self.lib}/*{os.pathsep}{self.plugins}/*"


def default_cache_root() -> Path:
    override = os.environ.get("GRAPHWIKI_NEO4J_DIST")
    return Path(override) if override else user_cache_dir() / "neo4j-dist"


def ensure_distribution(
    cache_root: Path | None = None,
    neo4j_version: str = NEO4J_VERSION,
    gds_version: str = GDS_VERSION,
    log=print,
) -> Distribution:
    """Return the cached distribution, resolving it with ``mvn`` the first time."""
    root = (cache_root or default_cache_root()) / f"neo4j-{neo4j_version}-gds-{gds_version}"
    dist = Distribution(root, neo4j_version, gds_version)
    if (root / _COMPLETE_MARKER).exists():
        return dist
    mvn = shutil.which("mvn")
    if mvn is None:
        raise DistributionError(
            "Maven (`mvn`) is not on PATH: it is needed once to fetch Neo4j and GDS from "
            "Maven Central (install it, e.g. `apt-get install maven`), or use `docker compose up`."
        )
    log(f"Fetching Neo4j {neo4j_version} and GDS {gds_version} from Maven Central (first run only)...")
    root.parent.mkdir(parents=True, exist_ok=True)
    # Build into a temporary sibling and rename, so an interrupted fetch never looks complete.
    staging = Path(tempfile.mkdtemp(prefix=root.name + ".", dir=root.parent))
    try:
        pom = staging / "pom.xml"
        pom.write_text(resources.files(__package__).joinpath("pom.xml").read_text())
        base = [mvn, "-B", "-q", "-f", str(pom), f"-Dneo4j.version={neo4j_version}", f"-Dgds.version={gds_version}"]
        for args in (
            [
                "dependency:copy-dependencies",
                "-DincludeGroupIds=org.neo4j.gds",
                f"-DoutputDirectory={staging / 'plugins'}",
            ],
            ["dependency:copy-dependencies", "-DexcludeGroupIds=org.neo4j.gds", f"-DoutputDirectory={staging / 'lib'}"],
        ):
            proc = subprocess.run(base + args, capture_output=True, text=True)
            if proc.returncode != 0:
                tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-25:])
                raise DistributionError(f"mvn failed to fetch Neo4j/GDS:\n{tail}")
        (staging / _COMPLETE_MARKER).write_text(f"{neo4j_version} {gds_version}\n")
        if root.exists():
            shutil.rmtree(root)
        staging.rename(root)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return dist
