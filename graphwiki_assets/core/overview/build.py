"""The overview: concepts by type (corroborated only), recent additions, active
contradictions, what needs review, and the gaps (types of the schema config with no
corroborated concept, concepts no claim is about). Rendered as markdown for the Dagster UI
and written, with the audit log, to ``$GRAPHWIKI_HOME/wiki/index.md`` and ``log.md``."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from graphwiki_assets.core.audit import read_entries
from graphwiki_assets.core.config import SchemaConfig
from graphwiki_assets.core.markdown import markdown_table
from graphwiki_assets.core.overview import cypher
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.schema import AWAITING_CORROBORATION
from graphwiki_assets.core.text.sentences import first_sentence

PER_TYPE = 20
# The first lines of index.md and log.md: how a later writer knows the files as these
INDEX_TITLE, LOG_TITLE = "# Overview", "# Log"
LIMIT = 20


@dataclass
class Overview:
    config_version: str
    corroboration: int
    generated_at: str
    by_type: list[dict] = field(default_factory=list)  # {type, total, concepts: [{id, name, summary, sources}]}
    single_source: int = 0
    recent: list[dict] = field(default_factory=list)
    contradictions: list[dict] = field(default_factory=list)
    needs_review: list[dict] = field(default_factory=list)
    empty_types: list[str] = field(default_factory=list)
    without_claims: int = 0
    without_claims_names: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {
            "corroborated_concepts": sum(t["total"] for t in self.by_type),
            "single_source": self.single_source,
            "active_contradictions": len(self.contradictions),
            "needs_review": len(self.needs_review),
            "empty_types": len(self.empty_types),
            "concepts_without_claims": self.without_claims,
        }

    def as_dict(self) -> dict:
        return {
            "config_version": self.config_version,
            "corroboration": self.corroboration,
            "generated_at": self.generated_at,
            "counts": self.counts(),
            "by_type": self.by_type,
            "recent": self.recent,
            "contradictions": self.contradictions,
            "needs_review": self.needs_review,
            "gaps": {"empty_types": self.empty_types, "without_claims": self.without_claims_names},
        }

    def markdown(self) -> str:
        lines = [
            INDEX_TITLE,
            "",
            f"_{self.generated_at[:19]} UTC, schema config {self.config_version}. Concepts stated by at least "
            f"{self.corroboration} independent sources; {self.single_source} more rest on one source and "
            f"await corroboration._",
            "",
        ]
        lines += ["## Concepts by type", ""]
        for t in self.by_type:
            lines += [f"### {t['type']} ({t['total']})", ""]
            lines += [
                f"- **{c['name']}** ({c['id']}, {c['sources']} sources): {_first_line(c['summary'])}"
                for c in t["concepts"]
            ]
            if t["total"] > len(t["concepts"]):
                lines.append(f"- … and {t['total'] - len(t['concepts'])} more")
            lines.append("")
        if not self.by_type:
            lines += ["_No concept is corroborated yet._", ""]
        lines += [
            "## Recent additions",
            "",
            markdown_table(self.recent, ["path", "title", "ingested_at", "concepts"]),
            "",
            "## Active contradictions",
            "",
            markdown_table(self.contradictions, ["claim", "claim_text", "opponent", "opponent_text", "about"]),
            "",
            "## Needs review",
            "",
            markdown_table(self.needs_review, ["id", "kind", "what", "reason"]),
            "",
            "## Knowledge gaps",
            "",
            f"- Types with no corroborated concept: {', '.join(self.empty_types) or 'none'}",
            f"- Concepts no claim is about: {self.without_claims}"
            + (
                f" ({', '.join(self.without_claims_names)}{', …' if self.without_claims > len(self.without_claims_names) else ''})"
                if self.without_claims_names
                else ""
            ),
        ]
        return "\n".join(lines) + "\n"


def _first_line(summary: str) -> str:
    return first_sentence(" ".join((summary or "").split()), 200) or "_no summary yet_"


def build_overview(store: GraphStore, config: SchemaConfig, now: datetime | None = None) -> Overview:
    corroboration = config.thresholds.corroboration
    now = now or datetime.now(UTC)
    view = Overview(config_version=config.version, corroboration=corroboration, generated_at=now.isoformat())
    view.by_type = store.query(cypher.CONCEPTS_BY_TYPE, corroboration=corroboration, per_type=PER_TYPE)
    view.single_source = store.query(cypher.SINGLE_SOURCE, corroboration=corroboration)[0]["n"]
    view.recent = store.query(cypher.RECENT_SOURCES, limit=LIMIT)
    view.contradictions = store.query(cypher.ACTIVE_CONTRADICTIONS, limit=LIMIT)
    view.needs_review = store.query(cypher.NEEDS_REVIEW, limit=LIMIT, awaiting=AWAITING_CORROBORATION)
    present = {t["type"] for t in view.by_type}
    view.empty_types = [name for name in config.taxonomy.names() if name not in present]
    row = store.query(cypher.WITHOUT_CLAIMS, limit=LIMIT)[0]
    view.without_claims, view.without_claims_names = row["n"], row["names"]
    return view


def write_wiki(
    store: GraphStore, overview: Overview, home: Path, log_entries: int = 200, pages: str = ""
) -> list[Path]:
    """``wiki/index.md`` (the overview) and ``wiki/log.md`` (the newest audit-log entries)."""
    return write_index(store, overview, Path(home) / "wiki", log_entries, pages)


def write_index(
    store: GraphStore, overview: Overview, folder: Path, log_entries: int = 200, pages: str = ""
) -> list[Path]:
    """``index.md`` (the overview, then ``pages``: the wiki export's list of its pages) and
    ``log.md`` (the newest audit-log entries) in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    entries = read_entries(store, limit=log_entries)
    log = [LOG_TITLE, "", f"_The newest {len(entries)} entries of the audit log (`graphwiki log`), oldest first._", ""]
    log += [f"- {e.at[:19]} **{e.action}** by {e.actor}: {e.summary}" for e in entries]
    index, log_path = folder / "index.md", folder / "log.md"
    index.write_text(overview.markdown() + (f"\n{pages}" if pages else ""), encoding="utf-8")
    log_path.write_text("\n".join(log) + "\n", encoding="utf-8")
    return [index, log_path]
