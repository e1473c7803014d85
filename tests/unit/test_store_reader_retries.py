"""A question's reads survive what a concurrent writer causes: a transient server error is
retried in a new transaction, within the question's wait (not the writers' retry time); anything else is reported, and
a failed transaction is left to the driver, never closed on a connection it gave back."""

from __future__ import annotations

import time

import pytest
from neo4j.exceptions import ClientError, ServiceUnavailable, TransientError

from graphwiki_assets.core.settings import Neo4jSettings
from graphwiki_assets.core.store.driver import GraphStore, GraphUnavailable, Reader

OUTDATED = "Neo.TransientError.Transaction.Outdated"


def _error(cls, code: str):
    exc = cls()
    exc._neo4j_code = code  # how the driver fills an error it hydrates from the server
    return exc


class _Flaky(Reader):
    """A reader whose statements fail as listed, then succeed (no server needed)."""

    def __init__(self, failures: list[Exception], wait_s: float = 30.0):
        super().__init__(GraphStore(Neo4jSettings(retry_s=30.0, question_wait_s=wait_s)))
        self.failures = list(failures)
        self.runs = 0

    def _run(self, cypher, params):
        self.runs += 1
        if self.failures:
            raise self.failures.pop(0)
        return [{"ok": True}]


def test_an_outdated_read_is_retried_until_it_succeeds():
    reader = _Flaky([_error(TransientError, OUTDATED), _error(TransientError, OUTDATED)])
    assert reader.query("RETURN 1") == [{"ok": True}] and reader.runs == 3


def test_a_transient_error_past_the_question_wait_is_raised():
    reader = _Flaky([_error(TransientError, OUTDATED)] * 50, wait_s=0.0)
    with pytest.raises(TransientError):
        reader.query("RETURN 1")
    assert reader.runs == 1


def test_a_client_error_is_not_retried():
    reader = _Flaky([_error(ClientError, "Neo.ClientError.Statement.SyntaxError")])
    with pytest.raises(ClientError):
        reader.query("RETURN")
    assert reader.runs == 1


def test_a_lost_connection_gets_one_fresh_session_then_is_reported():
    assert _Flaky([ServiceUnavailable("gone")]).query("RETURN 1") == [{"ok": True}]
    with pytest.raises(GraphUnavailable, match="lost the connection"):
        _Flaky([ServiceUnavailable("gone"), ServiceUnavailable("gone")]).query("RETURN 1")


def test_a_lost_connection_past_the_question_wait_is_reported_without_another_try():
    reader = _Flaky([ServiceUnavailable("gone")], wait_s=0.0)
    with pytest.raises(GraphUnavailable, match="lost the connection"):
        reader.query("RETURN 1")
    assert reader.runs == 1


class _Tx:
    """A transaction whose statement fails on the server, as the driver reports it."""

    def __init__(self):
        self.closed = 0

    def run(self, cypher, params):
        raise _error(ClientError, "Neo.ClientError.Procedure.ProcedureCallFailed")

    def close(self):
        self.closed += 1


class _Session:
    def __init__(self):
        self.tx, self.closed = _Tx(), 0

    def begin_transaction(self):
        return self.tx

    def close(self):
        self.closed += 1


def test_a_failed_transaction_is_forgotten_not_closed():
    # The driver has handed its connection back to the pool by then; closing it would touch
    # a socket another thread may hold (the question that never returned).
    reader = Reader(GraphStore(Neo4jSettings()))
    session = _Session()
    reader._session = session
    with pytest.raises(ClientError):
        reader.query("CALL gds.pageRank.stream('gone')")
    assert session.tx.closed == 0 and session.closed == 1
    assert reader._tx is None and reader._session is None


class _Slow(_Flaky):
    """A reader whose failing statements each take a while before they fail."""

    def _run(self, cypher, params):
        if self.failures:
            time.sleep(0.2)
        return super()._run(cypher, params)


def test_a_question_spends_one_patience_over_all_its_reads():
    # Each read alone would fit in the wait; together they do not, so the second is refused.
    reader = _Slow([_error(TransientError, OUTDATED)], wait_s=0.3)
    with reader.store.promptly():
        assert reader.query("RETURN 1") == [{"ok": True}]  # 0.2 s of the 0.3 spent
        reader.failures.append(_error(TransientError, OUTDATED))
        with pytest.raises(TransientError):
            reader.query("RETURN 1")
    reader.failures.append(_error(TransientError, OUTDATED))
    assert reader.query("RETURN 1") == [{"ok": True}]  # a new question has its own patience


class _DeadDriver:
    """A driver whose every transaction finds the server gone."""

    def __init__(self):
        self.attempts = 0

    def session(self, **config):
        return _DeadSession(self)


class _DeadSession:
    def __init__(self, driver: _DeadDriver):
        self.driver = driver

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def begin_transaction(self):
        self.driver.attempts += 1
        raise ServiceUnavailable("gone")


def test_a_write_someone_waits_on_is_refused_within_the_question_wait():
    # Not the driver's managed retries: their pauses double from a second, so "3 s" could take 7.
    store = GraphStore(Neo4jSettings(retry_s=30.0, question_wait_s=0.5))
    store._driver = _DeadDriver()
    started = time.monotonic()
    with store.promptly(), pytest.raises(GraphUnavailable, match="lost the connection"):
        store.write(lambda tx: None)
    assert time.monotonic() - started < 0.5 + 0.5  # the wait, and at most one pause past it
    assert store._driver.attempts >= 2  # it did try again within the wait
    store._driver = None
