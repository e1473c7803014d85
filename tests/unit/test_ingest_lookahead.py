"""The next batch is prepared (extracted, embedded) while the current one is resolved and
written, in the CLI and in the Dagster step alike, and nothing is lost or reordered by it."""

from __future__ import annotations

import threading

import pytest

from graphwiki_assets.core.ingest.pipeline import one_ahead


def test_the_next_batch_is_prepared_while_the_current_one_is_consumed():
    second_started = threading.Event()

    def prepare(batch):
        if batch == 2:
            second_started.set()
        return batch * 10

    seen = []
    for prepared, last in one_ahead([1, 2, 3], prepare):
        if prepared == 10:
            # Still inside the first batch's work: the second is already under way.
            assert second_started.wait(timeout=10)
        seen.append((prepared, last))
    assert seen == [(10, False), (20, False), (30, True)]


def test_no_batches_prepare_nothing():
    assert list(one_ahead([], lambda b: pytest.fail("prepared a batch that does not exist"))) == []


def test_a_failed_preparation_reaches_the_consumer_at_its_batch():
    def prepare(batch):
        if batch == 2:
            raise ValueError("batch 2 could not be read")
        return batch

    got = []
    with pytest.raises(ValueError, match="batch 2"):
        for prepared, _ in one_ahead([1, 2, 3], prepare):
            got.append(prepared)
    assert got == [1]
