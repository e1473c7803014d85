"""The latency benchmark runs on any ingested graph and reports every technique."""

from graphwiki_assets.core.evals.latency import measure, percentile
from graphwiki_assets.core.llm.client import build_llm
from tests.support.ingest import SMOKE_TEXTS, ingest, write_sources


def test_percentiles_pick_ranks_of_the_sorted_values():
    values = [5.0, 1.0, 3.0, 2.0, 4.0]
    assert percentile(values, 0.5) == 3.0
    assert percentile(values, 0.95) == 5.0
    assert percentile([], 0.5) == 0.0


def test_latency_is_measured_per_technique_on_the_ingested_graph(store, embedder, settings, tmp_path):
    ingest(store, embedder, settings, write_sources(tmp_path, SMOKE_TEXTS))
    result = measure(store, embedder, build_llm(settings.llm, None), per_shape=3, seed=1)
    assert set(result.shapes) == {"what_is", "related", "connect", "shaped_like"}
    for shape, numbers in result.shapes.items():
        if numbers.n:
            assert 0 < numbers.p50_ms <= numbers.p95_ms, shape
    assert result.shapes["what_is"].n == 3 and result.shapes["what_is"].found >= 1


def test_latency_through_a_server_times_each_question_over_http(store, embedder, settings, tmp_path, workspace):
    from graphwiki_assets.server.bench import measure_served
    from graphwiki_assets.server.client import ServerClient
    from graphwiki_assets.server.http_app import build_app
    from tests.support.serving import serving

    ingest(store, embedder, settings, write_sources(tmp_path, SMOKE_TEXTS))
    with serving(build_app(workspace)) as url:
        result = measure_served(store, ServerClient(url), per_shape=3, seed=1)
    what_is = result.shapes["what_is"]
    assert what_is.n == 3 and what_is.errors == 0 and what_is.found >= 1
    # the client's time holds the server's own (ask's) time plus the transport
    assert 0 < what_is.answer_p50_ms <= what_is.p50_ms
    assert result.overall.n == sum(s.n for s in result.shapes.values())
    assert result.targets["p95_ms"].limit == 800 and result.server == url
    questions = workspace.log(action="question", limit=200)
    assert questions and all(e["actor"] == "http:graphwiki latency --serve" for e in questions)
