"""The one way the domain core talks to Neo4j.

A ``GraphStore`` owns a driver for its own lifetime (open it with ``with``): no module
keeps a shared driver. Every query takes parameters; callers never format values into
Cypher text.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol, TypeVar

from neo4j import (
    READ_ACCESS,
    WRITE_ACCESS,
    Driver,
    GraphDatabase,
    ManagedTransaction,
    NotificationMinimumSeverity,
    Session,
    Transaction,
)
from neo4j.exceptions import (
    AuthError,
    ClientError,
    DriverError,
    Neo4jError,
    ResultFailedError,
    ServiceUnavailable,
    SessionExpired,
    TransientError,
)

from graphwiki_assets.core.retries import backoff
from graphwiki_assets.core.settings import Neo4jSettings

T = TypeVar("T")
RATE_LIMITED = "Neo.ClientError.Security.AuthenticationRateLimit"


class Patience:
    """Seconds a request someone waits on may still spend on failed attempts and the pauses
    between them, over all its calls to the graph (``GraphStore.promptly``)."""

    def __init__(self, seconds: float):
        self.left = seconds

    def spend(self, seconds: float) -> None:
        self.left -= seconds


# This thread's (or task's) patience; None: the writers' retry time applies.
_PATIENCE: ContextVar[Patience | None] = ContextVar("graphwiki_store_patience", default=None)


class Vector(list):
    """A list parameter (an embedding) whose repr is short.

    The Bolt driver formats every statement's parameters for its debug log before it looks
    at the log level (neo4j 6.4, ``Bolt5x0.run``); for a batch of embeddings the formatting
    costs several times what sending them does. The driver packs a list subclass as a list.
    """

    def __repr__(self) -> str:
        return f"<vector of {len(self)}>"


class GraphUnavailable(RuntimeError):
    """Neo4j cannot be reached, refused the login, or went away; the message says what to do."""


def _refused(settings: Neo4jSettings, exc: Exception) -> GraphUnavailable:
    if getattr(exc, "code", "") == RATE_LIMITED:
        return GraphUnavailable(
            f"Neo4j at {settings.uri} refuses logins for a while after several wrong passwords. Wait a few "
            "seconds, then check NEO4J_USERNAME / NEO4J_PASSWORD (the password a local instance was created with)."
        )
    return GraphUnavailable(
        f"Neo4j at {settings.uri} rejected the login of user {settings.username!r}: set NEO4J_PASSWORD (and "
        "NEO4J_USERNAME) to the password the server was created with. For the local launcher's instance that is "
        "the NEO4J_PASSWORD in effect the first time `graphwiki neo4j start` created its data."
    )


def _server_error(exc: ResultFailedError) -> Exception:
    """The server's own error behind the driver's "the result has failed" wrapper, so that
    callers can tell what failed (a GDS graph dropped meanwhile, a seed it does not hold)."""
    cause = exc.__cause__
    return cause if isinstance(cause, Neo4jError) else exc


def connection_lost(settings: Neo4jSettings, exc: Exception) -> GraphUnavailable:
    return GraphUnavailable(
        f"lost the connection to Neo4j at {settings.uri} ({type(exc).__name__}). Nothing of an unfinished "
        "transaction was written. Check `graphwiki neo4j status`, start it again with `graphwiki neo4j start` "
        "(or `docker compose up -d`), then re-run: what was committed is kept and is not done twice."
    )


@contextmanager
def server_errors(settings: Neo4jSettings) -> Iterator[None]:
    """The store's translation of a failed call: a lost server becomes ``GraphUnavailable``
    with what to do, a failed result the server's own error. For callers that reach Neo4j
    through the store's driver without ``query`` (the GDS client)."""
    try:
        yield
    except (ServiceUnavailable, SessionExpired) as exc:
        raise connection_lost(settings, exc) from exc
    except ResultFailedError as exc:
        raise _server_error(exc) from None


class Graph(Protocol):
    """What a function that reads the graph needs: a ``GraphStore`` or a ``Reader`` (one
    open read transaction) is one. ``write`` is there for a read that first catches up
    derived state no ingest has refreshed yet."""

    settings: Neo4jSettings
    memo: dict[str, Any]

    def query(self, cypher: str, **params: Any) -> list[dict[str, Any]]: ...

    def write(self, work: Callable[..., T], *args: Any, **kwargs: Any) -> T: ...


class GraphStore:
    def __init__(self, settings: Neo4jSettings):
        self.settings = settings
        self._driver: Driver | None = None
        # Figures derived from the graph that callers may reuse while it has not changed
        # (the corpus size, keyed by the number of sources); per store, never per module.
        self.memo: dict[str, Any] = {}
        # The GDS client over this driver (``core/store/gds_client.py``), built on first use.
        self.gds_client: Any = None

    @property
    def driver(self) -> Driver:
        if self._driver is None:
            self._driver = GraphDatabase.driver(
                self.settings.uri,
                auth=(self.settings.username, self.settings.password),
                notifications_min_severity=NotificationMinimumSeverity.OFF,
                max_transaction_retry_time=self.settings.retry_s,
                connection_timeout=self.settings.connect_s,
            )
            try:
                self._driver.verify_connectivity()
            except (ServiceUnavailable, OSError) as exc:
                self._driver.close()
                self._driver = None
                raise GraphUnavailable(
                    f"Neo4j is not reachable at {self.settings.uri}: start it with "
                    "`graphwiki neo4j start` (or `docker compose up -d`), or set NEO4J_URI."
                ) from exc
            except (AuthError, ClientError) as exc:
                self._driver.close()
                self._driver = None
                if isinstance(exc, AuthError) or getattr(exc, "code", "") == RATE_LIMITED:
                    raise _refused(self.settings, exc) from exc
                raise
        return self._driver

    def close(self) -> None:
        self.gds_client = None  # it holds the driver closed here
        if self._driver is not None:
            self._driver.close()
            self._driver = None

    def __enter__(self) -> GraphStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextmanager
    def promptly(self) -> Iterator[None]:
        """Inside it, this thread's calls (``query``, ``write``, ``read`` and a ``Reader``'s
        queries) share one patience of ``question_wait_s``: failed attempts and the pauses
        before trying again spend it, so a graph that went away is a refusal in seconds,
        whichever call meets it (a read, a projection rebuilt after a restart, a catch-up
        write, the audit entry) and however many calls the question makes, while a question
        that is merely slow keeps its patience for the errors it meets."""
        outer = _PATIENCE.get()
        token = _PATIENCE.set(outer if outer is not None else Patience(self.settings.question_wait_s))
        try:
            yield
        finally:
            _PATIENCE.reset(token)

    def query(self, cypher: str, **params: Any) -> list[dict[str, Any]]:
        """Run one statement in an auto-committed transaction and return its rows as dicts."""
        patience = _PATIENCE.get()
        if patience is not None:
            return self._patiently(patience, WRITE_ACCESS, _statement_rows, cypher, params)
        try:
            records, _, _ = self.driver.execute_query(cypher, params, database_=self.settings.database)
        except (ServiceUnavailable, SessionExpired) as exc:
            raise connection_lost(self.settings, exc) from exc
        except ResultFailedError as exc:
            raise _server_error(exc) from None
        return [r.data() for r in records]

    def _patiently(self, patience: Patience, mode: str, work: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``work(tx, ...)`` in a transaction, tried again after a lost connection or a
        transient error while ``patience`` lasts. The driver's managed retries are not used:
        their pauses double from a second (1, 2, 4 s), so a retry time of 3 s could take 7."""
        attempt = 0
        while True:
            started = time.monotonic()
            try:
                with (
                    self.driver.session(database=self.settings.database, default_access_mode=mode) as session,
                    session.begin_transaction() as tx,
                ):
                    result = work(tx, *args, **kwargs)
                    tx.commit()
                    return result
            except (ServiceUnavailable, SessionExpired, TransientError) as exc:
                patience.spend(time.monotonic() - started)
                delay = backoff(attempt, None, base=0.1, ceiling=0.5)
                retryable = not isinstance(exc, TransientError) or exc.is_retryable()
                if not retryable or delay > patience.left:
                    if isinstance(exc, TransientError):
                        raise
                    raise connection_lost(self.settings, exc) from exc
                patience.spend(delay)
                attempt += 1
                time.sleep(delay)
            except ResultFailedError as exc:
                raise _server_error(exc) from None

    def query_batched(self, cypher: str, **params: Any) -> list[dict[str, Any]]:
        """For ``CALL { ... } IN TRANSACTIONS``, which needs an implicit transaction."""
        try:
            with self.driver.session(database=self.settings.database) as session:
                return [r.data() for r in session.run(cypher, params)]
        except (ServiceUnavailable, SessionExpired) as exc:
            raise connection_lost(self.settings, exc) from exc
        except ResultFailedError as exc:
            raise _server_error(exc) from None

    @contextmanager
    def reading(self) -> Iterator[Reader]:
        """A store for a series of reads (one question): its queries share one session and
        one read transaction instead of paying for a session and a commit each."""
        reader = Reader(self)
        try:
            yield reader
        finally:
            reader.close()

    def write(self, work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``work(tx, ...)`` in one managed write transaction (retried on transient errors)."""
        return self._write(self.settings.retry_s, work, *args, **kwargs)

    def _write(self, retry_s: float, work: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        patience = _PATIENCE.get()
        if patience is not None:
            return self._patiently(patience, WRITE_ACCESS, work, *args, **kwargs)
        try:
            with self.driver.session(database=self.settings.database, max_transaction_retry_time=retry_s) as session:
                return session.execute_write(work, *args, **kwargs)
        except (ServiceUnavailable, SessionExpired) as exc:
            raise connection_lost(self.settings, exc) from exc
        except ResultFailedError as exc:
            raise _server_error(exc) from None

    def read(self, work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        patience = _PATIENCE.get()
        if patience is not None:
            return self._patiently(patience, READ_ACCESS, work, *args, **kwargs)
        try:
            with self.driver.session(database=self.settings.database) as session:
                return session.execute_read(work, *args, **kwargs)
        except (ServiceUnavailable, SessionExpired) as exc:
            raise connection_lost(self.settings, exc) from exc


class Reader:
    """``GraphStore.query`` inside one open read transaction, for one thread.

    An auto-committed query costs a session, a BEGIN and a COMMIT round trip on top of its
    own; a question runs ten or so small queries, so on a fast graph that overhead is most
    of its time. A failed query ends the transaction (Neo4j's rule); the next query opens
    a new one, so callers that retry after a server error (a GDS graph dropped meanwhile)
    work as they do on the store. Writes still go through the store's own transactions.
    """

    def __init__(self, store: GraphStore):
        self.store = store
        self.settings = store.settings
        self.memo = store.memo
        self._session: Session | None = None
        self._tx: Transaction | None = None

    def query(self, cypher: str, **params: Any) -> list[dict[str, Any]]:
        # A read is safe to repeat. A pooled connection the server has dropped fails at BEGIN
        # or RUN: one fresh session before the loss is reported. A transient server error (a
        # read that met a concurrent commit, "Transaction.Outdated"; a deadlock; a leader
        # switch) is retried in a new transaction with back-off, as the driver's managed
        # transactions do. Someone is waiting for the answer, so only for the question's
        # patience (a few seconds over all its calls), not the writers' retry time.
        patience = _PATIENCE.get() or Patience(self.settings.question_wait_s)
        attempt, lost_once = 0, False
        while True:
            started = time.monotonic()
            try:
                return self._run(cypher, params)
            except (ServiceUnavailable, SessionExpired) as exc:
                self._abandon()
                patience.spend(time.monotonic() - started)
                if lost_once or patience.left <= 0:
                    raise connection_lost(self.settings, exc) from exc
                lost_once = True
            except TransientError as exc:
                patience.spend(time.monotonic() - started)
                delay = backoff(attempt, None, base=0.05, ceiling=1.0)
                if not exc.is_retryable() or delay > patience.left:
                    raise
                patience.spend(delay)
                attempt += 1
                time.sleep(delay)

    def _run(self, cypher: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        if self._tx is None:
            if self._session is None:
                self._session = self.store.driver.session(
                    database=self.settings.database, default_access_mode=READ_ACCESS
                )
            self._tx = self._session.begin_transaction()
        try:
            return [r.data() for r in self._tx.run(cypher, params)]
        except ResultFailedError as exc:
            self._abandon()
            raise _server_error(exc) from None
        except Neo4jError:
            self._abandon()
            raise

    def write(self, work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        # a question may catch up a graph no ingest has refreshed yet (the shape signatures)
        return self.store.write(work, *args, **kwargs)

    def _abandon(self) -> None:
        """Forget a failed transaction without closing it. On a server error the driver has
        already handed its connection back to the pool (the session's error handler), but
        the transaction still points at it, and closing it would check that socket (neo4j
        6.4: ``Transaction._rollback`` calls ``connection.defunct()``) while another thread
        may already hold the connection. Two threads setting one socket's timeout at once
        can leave CPython's ``recv`` retrying EAGAIN forever: the question that never
        returned. The session is closed too; the next query opens both anew."""
        self._tx = None
        if self._session is not None:
            self._session.close()
            self._session = None

    def _end(self) -> None:
        if self._tx is not None:
            try:
                self._tx.close()  # read-only: nothing to roll back
            except (Neo4jError, DriverError):
                pass  # the connection went away meanwhile; the next query opens a new one
            self._tx = None

    def close(self) -> None:
        try:
            self._end()
        finally:
            self._abandon()  # the transaction is ended by now: this closes the session


def rows(tx: ManagedTransaction, cypher: str, **params: Any) -> list[dict[str, Any]]:
    """Run a statement inside a transaction function and return its rows as dicts."""
    return _statement_rows(tx, cypher, params)


def _statement_rows(tx: ManagedTransaction, cypher: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    # the parameters as one dict: a statement's own "$cypher" cannot clash with the argument
    return [r.data() for r in tx.run(cypher, params)]
