"""The values the ingest stages hand on: every source of a batch keeps a status and a path
through them, and a run's totals count only the sources written."""

from graphwiki_assets.core.ingest.models import CommitReport
from graphwiki_assets.core.ingest.stages import Committed, NewSource, Triaged
from graphwiki_assets.core.sources import SourceDocument, sha256_text


def _doc(path: str, text: str) -> SourceDocument:
    return SourceDocument(path=path, title=path, text=text, sha256=sha256_text(text))


def test_triage_gives_every_item_a_status_by_its_path():
    triaged = Triaged(
        new=[NewSource(_doc("a.md", "Alpha."), also_paths=["copy/a.md"])],
        reports=[
            CommitReport(source_id="", path="bad.bin", status="skipped", reason="binary"),
            CommitReport(source_id="s1", path="copy/a.md", status="unchanged", reason="same text as a.md"),
        ],
    )
    by_path = triaged.by_path()
    assert {path: v.status for path, v in by_path.items()} == {
        "bad.bin": "skipped",
        "copy/a.md": "unchanged",
        "a.md": "new",
    }
    assert by_path["bad.bin"].reason == "binary" and by_path["a.md"].reason == ""


def test_a_runs_totals_count_only_the_sources_written():
    committed = Committed(
        {
            "a.md": CommitReport(source_id="a", path="a.md", status="new", claims=3, concepts_created=2),
            "b.md": CommitReport(source_id="b", path="b.md", status="new", claims=1, concepts_merged=1),
            "c.md": CommitReport(source_id="c", path="c.md", status="failed", reason="LLM call failed"),
            "d.md": CommitReport(source_id="d", path="d.md", status="unchanged"),
        }
    )
    totals = committed.totals
    assert (totals.sources, totals.claims, totals.concepts_created, totals.concepts_merged) == (2, 4, 2, 1)
    assert [r.path for r in committed.written] == ["a.md", "b.md"]
    assert list(committed.failed) == ["c.md"]
