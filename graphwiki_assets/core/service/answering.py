"""A question answered as data: the answer (with its text for a terminal), filed back into
the graph when asked. The same steps for ``graphwiki ask`` in-process and for the service."""

from __future__ import annotations

from graphwiki_assets.core.config import load_config
from graphwiki_assets.core.embeddings import Encoder
from graphwiki_assets.core.llm.client import LLMClient
from graphwiki_assets.core.settings import Settings
from graphwiki_assets.core.store.driver import GraphStore


def answer_as_data(
    settings: Settings,
    store: GraphStore,
    embedder: Encoder,
    llm: LLMClient,
    question: str,
    *,
    hops: int,
    k: int,
    shape: str | None,
    file: bool,
    actor: str,
) -> dict:
    """The answer's fields and ``text``; with ``file``, ``filed`` (its id, or None with
    ``not_filed`` saying why). An option the query refuses raises ValueError."""
    from graphwiki_assets.core.query import ask
    from graphwiki_assets.core.query.filed import NotFileable, file_answer

    stale_days = load_config(settings.config_path, settings.home).config.thresholds.staleness_days
    answer = ask(
        store,
        embedder,
        llm,
        question,
        hops=hops,
        k=k,
        shape=shape,
        sources_dirs=[settings.sources_dir],
        actor=actor,
        stale_days=stale_days,
    )
    data = answer.as_dict()
    data["text"] = answer.text()
    if file:
        try:
            data["filed"] = file_answer(store, embedder, answer, actor=actor)
        except NotFileable as exc:
            data["filed"], data["not_filed"] = None, str(exc)
    return data
