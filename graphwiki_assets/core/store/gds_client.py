"""The GDS Python client (``graphdatascience``) over the store's own driver.

The batch GDS work (projections and their lifetime, Leiden, FastRP, the catalog) runs
through the client, which holds graphs as objects and returns algorithm results as
DataFrames. It is built from the driver the store already holds (the 2.x client takes a
``Driver`` where 1.x had ``GraphDataScience.from_neo4j_driver``): one driver, one credential
set, and the client never sees a password (it keeps none when given a driver). Every call
goes through ``calls``, the store's error translation, so a Neo4j that went away is the
same clear ``GraphUnavailable`` here as for any other query.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from graphdatascience import Graph, GraphDataScience
from graphdatascience.error.gds_not_installed import GdsNotFound
from graphdatascience.error.unable_to_connect import UnableToConnectError
from graphdatascience.procedure_surface.cypher.catalog.graph_backend_cypher import get_graph
from graphdatascience.query_runner.neo4j_query_runner import Neo4jQueryRunner
from graphdatascience.query_runner.query_mode import QueryMode
from graphdatascience.query_runner.query_type import QueryType
from neo4j.exceptions import ClientError, DriverError
from pandas import DataFrame

from graphwiki_assets.core.store.driver import GraphStore, server_errors

# The client checks the connection before each call and by default retries it for ten
# minutes; the store reports a lost server at once, with what to do, and so does this.
_CHECK_ONCE = Neo4jQueryRunner.ConnectivityRetriesConfig(max_retries=1, wait_time=0)
CATALOG_NAMES = "CALL gds.graph.list() YIELD graphName WHERE graphName STARTS WITH $prefix RETURN graphName AS name"


class GdsUnavailable(RuntimeError):
    """The Neo4j server has no GDS library."""


class _StoreRunner(Neo4jQueryRunner):
    """The client's query runner on the store's driver, checking the connection once."""

    def run_cypher(
        self,
        query: str,
        query_type: QueryType,
        params: dict[str, Any] | None = None,
        database: str | None = None,
        mode: QueryMode | None = None,
        custom_error: bool = True,
        connectivity_retry_config: Neo4jQueryRunner.ConnectivityRetriesConfig | None = None,
    ) -> DataFrame:
        return super().run_cypher(
            query, query_type, params, database, mode, custom_error, connectivity_retry_config or _CHECK_ONCE
        )


@dataclass(frozen=True)
class StoreGds:
    """The client and the runner it was built on (graph handles are made with the runner)."""

    client: GraphDataScience
    runner: Neo4jQueryRunner


@contextmanager
def calls(store: GraphStore) -> Iterator[None]:
    """The store's error translation around client calls; the client's own "unable to
    connect" is the driver error behind it, translated the same way."""
    with server_errors(store.settings):
        try:
            yield
        except UnableToConnectError as exc:
            cause = exc.__cause__
            if isinstance(cause, DriverError):
                raise cause from exc
            raise


def store_gds(store: GraphStore) -> StoreGds:
    """The store's GDS client, built on first use from the store's driver."""
    if store.gds_client is None:
        driver = store.driver  # GraphUnavailable when Neo4j cannot be reached
        runner = _StoreRunner(
            driver,
            "neo4j+s" if driver.encrypted else "bolt",
            auto_close=False,  # the store owns the driver and closes it
            database=store.settings.database,
            show_progress=False,  # no progress bars on a batch job's output
        )
        with calls(store):
            try:
                # Arrow off: the client would need the credentials to reach GDS's Flight server.
                client = GraphDataScience(runner, arrow=False, show_progress=False)
            except GdsNotFound as exc:
                raise GdsUnavailable(
                    f"Neo4j at {store.settings.uri} has no Graph Data Science library: install the GDS "
                    "plugin (the local launcher and the compose file both do)"
                ) from exc
        store.gds_client = StoreGds(client, runner)
    return store.gds_client


def gds(store: GraphStore) -> GraphDataScience:
    return store_gds(store).client


def graph(store: GraphStore, name: str) -> Graph:
    """A handle on the catalog graph ``name`` without reading the catalog again
    (``gds.graph.get`` lists it first; callers have just found it in the catalog)."""
    return get_graph(name, store_gds(store).runner)


def drop_graphs(store: GraphStore, prefix: str = "") -> int:
    """Drop every catalog graph whose name starts with ``prefix`` (all of them by default);
    how many were dropped."""
    names = catalog_names(store, prefix)
    drop_named(store, names)
    return len(names)


def catalog_names(store: GraphStore, prefix: str = "") -> list[str]:
    """The names of the catalog graphs that start with ``prefix``.

    Names only, through the client's runner (one connection check, no retries): the client's
    listing computes every graph's degree distribution, which fails when a graph is dropped
    while it is listed.
    """
    client = gds(store)  # GdsUnavailable, with what to install, on a server without GDS
    with calls(store):
        # auto-commit: the client's other path is the driver's managed retries (30 s and more)
        listed = client.run_cypher(CATALOG_NAMES, {"prefix": prefix}, mode=QueryMode.READ, auto_commit=True)
    return [str(name) for name in listed["name"]]


def drop_named(store: GraphStore, names: list[str], attempts: int = 3) -> None:
    """Drop these catalog graphs, whoever else is dropping them.

    Two drops of one graph at once can both fail inside GDS (a NullPointerException on the
    entry the other removed), so a failed drop is judged by the catalog afterwards: what is
    gone is done, what is left is dropped again.
    """
    left: list[Graph | str] = list(names)
    for attempt in range(attempts):
        if not left:
            return
        try:
            with calls(store):
                gds(store).graph.drop(left, fail_if_missing=False)
            return
        except ClientError:
            listed = set(catalog_names(store))
            left = [name for name in left if name in listed]
            if left and attempt == attempts - 1:
                raise
