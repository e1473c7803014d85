"""Where the repository's own files are, whatever folder a test module sits in."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
