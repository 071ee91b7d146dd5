"""The narrow query runner: the only object in kgmem that talks to Neo4j.

``GraphClient`` owns one async driver. Callers name a catalog query and pass its parameters;
reads run as auto-commit statements in READ sessions (one round trip, retried like a
transaction), writes in write transactions of WRITE sessions, and ``write_batch`` runs several
named writes in one transaction so a batch lands whole or not at all. The access mode is what a
``neo4j://`` (routing) URI routes by: on a cluster, reads go to secondaries and read replicas,
writes to the leader. Every committed write's bookmarks go to the caller's consistency scope,
and every read waits for the bookmarks its scope names (``kgmem.graph.consistency``). Driver
failures are translated here, once, into kgmem's typed errors with a message that says what to
do. Constructing a client does no I/O; ``connect()`` opens and verifies the connection.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

import neo4j
import neo4j.graph
import neo4j.time
from neo4j import exceptions as nx

from kgmem.errors import ConfigError, GraphAuthError, GraphUnavailable, InvalidInput, KgmemError
from kgmem.graph import consistency
from kgmem.graph.catalog import Query, get_query
from kgmem.graph.retry import retrying
from kgmem.settings import Settings

Row = dict[str, Any]


@dataclass(frozen=True)
class Step:
    """One named write of a batch, with an optional in-transaction check of its rows and an
    optional condition on the rows of the batch's earlier steps (``when``): a step whose
    condition is false is skipped and gives no rows."""

    name: str
    params: dict[str, Any]
    check: Callable[[list[Row]], None] | None = None
    when: Callable[[list[list[Row]]], bool] | None = None


_MISSING_INDEX = re.compile(r"no such (?:\w+ )?schema index:? `?([\w-]+)")


@contextmanager
def translated_errors(uri: str) -> Iterator[None]:
    """Turn driver exceptions into kgmem errors; nothing from the driver leaks past here."""
    try:
        yield
    except nx.AuthError as exc:
        raise GraphAuthError(
            f"Neo4j at {uri} refused the credentials: check KGMEM_NEO4J_USER / KGMEM_NEO4J_PASSWORD"
        ) from exc
    except (nx.ServiceUnavailable, nx.SessionExpired, OSError) as exc:
        raise GraphUnavailable(
            f"Neo4j is not reachable at {uri}: start the local server with `kgmem db start`, "
            "or point KGMEM_NEO4J_URI at a running one"
        ) from exc
    except nx.ConstraintError as exc:
        raise InvalidInput(f"the write conflicts with an existing record: {exc.message}") from exc
    except nx.ClientError as exc:
        if exc.code == "Neo.ClientError.Transaction.InvalidBookmark":
            raise InvalidInput(
                "the consistency token is not one this database issued (pass back the "
                "bookmarks a write returned, unchanged)"
            ) from exc
        _raise_neo4j(exc, uri)
    except nx.Neo4jError as exc:
        _raise_neo4j(exc, uri)
    except nx.DriverError as exc:
        raise GraphUnavailable(f"the Neo4j driver failed: {type(exc).__name__}") from exc


def _raise_neo4j(exc: nx.Neo4jError, uri: str) -> NoReturn:
    missing = _MISSING_INDEX.search(exc.message or "")
    if missing:  # a database kgmem never initialised: say what to run, not a driver code
        raise ConfigError(
            f"the database at {uri} has no kgmem schema (index {missing.group(1)} is "
            "missing): run `kgmem db init` (or `Kgmem.init_schema()`) once"
        ) from exc
    raise KgmemError(f"Neo4j rejected a query ({exc.code})") from exc


M = TypeVar("M")


class GraphClient:
    """Runs catalog queries against one Neo4j database."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._driver: neo4j.AsyncDriver | None = None
        # Counts statements sent, so tests can prove a request makes no N+1 queries.
        self.statements_run = 0
        # Server-side milliseconds of those statements (planning + execution + streaming, as the
        # server reports them), so benchmarks can split latency into server and client time.
        self.server_ms = 0.0
        # Sessions opened by access mode ("READ", "WRITE"): what a routing driver routes by, so
        # tests can prove that reads never ask for the leader.
        self.sessions: dict[str, int] = {"READ": 0, "WRITE": 0}
        self._memos: dict[type, Any] = {}

    def memo(self, kind: type[M]) -> M:
        """The one ``kind()`` this client keeps: memos of what its queries found (where index
        searches end, a namespace's hub names) live exactly as long as the client."""
        held = self._memos.get(kind)
        if held is None:
            held = self._memos[kind] = kind()
        return held  # type: ignore[no-any-return]

    @property
    def uri(self) -> str:
        return self._settings.neo4j_uri

    async def connect(self) -> GraphClient:
        if self._driver is not None:
            return self
        s = self._settings
        auth = (s.neo4j_user, s.neo4j_password_value()) if s.neo4j_auth else None
        with translated_errors(s.neo4j_uri):
            driver = neo4j.AsyncGraphDatabase.driver(
                s.neo4j_uri,
                auth=auth,
                connection_timeout=s.neo4j_timeout_s,
                connection_acquisition_timeout=s.neo4j_timeout_s,
                max_transaction_retry_time=s.neo4j_timeout_s,
                notifications_min_severity="OFF",
            )
            try:
                await driver.verify_connectivity()
            except BaseException:
                await driver.close()
                raise
        self._driver = driver
        return self

    async def close(self) -> None:
        if self._driver is not None:
            await self._driver.close()
            self._driver = None

    def _require(self) -> neo4j.AsyncDriver:
        if self._driver is None:
            raise GraphUnavailable("the graph client is not connected (call connect() first)")
        return self._driver

    async def run(self, name: str, **params: Any) -> list[Row]:
        """Run one catalog query: a read as an auto-commit statement, a write in a transaction.

        A read is RUN + PULL in a READ session, one round trip; a managed transaction pipelines
        BEGIN with them and then needs a second for COMMIT, which cost ~0.4 ms of client CPU and
        ~0.5 ms of wall per statement (a recall sends five or more). Reads keep a retry like the
        managed transaction's (``retry.retrying``, bounded by ``neo4j_timeout_s``). No bookmark
        manager: causal consistency is asked for explicitly, by a consistency token
        (``kgmem.graph.consistency``), so a process's reads need not wait for every write of it.
        """
        query = get_query(name)
        query.check_params(params)
        driver = self._require()
        with translated_errors(self.uri):
            if query.is_read:
                return await retrying(
                    lambda: self._read(driver, query, params), self._settings.neo4j_timeout_s
                )
            rows: list[Row] = await self._write(driver, _work(query, params, self))
            return rows

    async def _read(
        self, driver: neo4j.AsyncDriver, query: Query, params: dict[str, Any]
    ) -> list[Row]:
        after = consistency.wanted()
        self.sessions["READ"] += 1
        async with driver.session(
            database=self._settings.neo4j_database,
            default_access_mode=neo4j.READ_ACCESS,
            bookmarks=neo4j.Bookmarks.from_raw_values(after) if after else None,
            bookmark_manager=None,
        ) as session:
            result = await session.run(query.text, params)  # type: ignore[arg-type]
            return await self._rows(result, plain=query.plain)

    async def _write(
        self, driver: neo4j.AsyncDriver, work: Callable[[neo4j.AsyncManagedTransaction], Any]
    ) -> Any:
        """``work`` in a managed write transaction (retried by the driver); the commit's
        bookmarks go to the caller's consistency scope."""
        self.sessions["WRITE"] += 1
        async with driver.session(
            database=self._settings.neo4j_database,
            default_access_mode=neo4j.WRITE_ACCESS,
            bookmark_manager=None,
        ) as session:
            out = await session.execute_write(work)
            consistency.record((await session.last_bookmarks()).raw_values)
            return out

    async def write_batch(self, steps: Sequence[Step]) -> list[list[Row]]:
        """Run several named writes in one transaction: all land, or none do.

        A step's ``check`` sees that step's rows inside the transaction; raising there (a
        ``KgmemError``) rolls the whole batch back — used to claim episodes exactly once.
        """
        for step in steps:
            get_query(step.name).check_params(step.params)
        driver = self._require()

        async def work(tx: neo4j.AsyncManagedTransaction) -> list[list[Row]]:
            out: list[list[Row]] = []
            for step in steps:
                if step.when is not None and not step.when(out):
                    out.append([])
                    continue
                rows = await _work(get_query(step.name), step.params, self)(tx)
                if step.check is not None:
                    step.check(rows)
                out.append(rows)
            return out

        with translated_errors(self.uri):
            batch: list[list[Row]] = await self._write(driver, work)
            return batch

    async def _rows(self, result: neo4j.AsyncResult, *, plain: bool = False) -> list[Row]:
        """A statement's rows as plain Python, counting the statement and its server time.
        ``plain``: the query's values need no conversion (``native`` walked ~1,000 values per
        recall hydration, ~12 % of a recall's main-thread CPU, to return them unchanged)."""
        self.statements_run += 1
        if plain:
            rows = [dict(record.items()) async for record in result]  # type: ignore[no-untyped-call]
        else:
            rows = [
                {k: native(v) for k, v in record.items()}  # type: ignore[no-untyped-call]
                async for record in result
            ]
        summary = await result.consume()  # every record is in: no round trip, just the footer
        self.server_ms += (summary.result_available_after or 0) + (
            summary.result_consumed_after or 0
        )
        return rows

    async def deprecations(self, name: str) -> list[str]:
        """The server's deprecation notices for a catalog query, from ``EXPLAIN`` (nothing runs).

        The driver is opened with notifications off, so a query using a feature the next Cypher
        version removes would go unnoticed; the tests call this for every query in the catalog.
        """
        query = get_query(name)
        driver = self._require()
        with translated_errors(self.uri):
            async with driver.session(
                database=self._settings.neo4j_database, notifications_min_severity="INFORMATION"
            ) as session:
                result = await session.run(
                    "EXPLAIN " + query.text,  # type: ignore[arg-type]
                    dict.fromkeys(query.params),
                )
                summary = await result.consume()
        return [
            s.status_description
            for s in summary.gql_status_objects
            if s.classification == neo4j.NotificationClassification.DEPRECATION
        ]

    async def query_type(self, name: str) -> str:
        """The server's type of a catalog query from ``EXPLAIN`` (nothing runs): ``r`` (reads
        only), ``rw``, ``w`` or ``s`` (schema). Tests check every query kgmem routes to READ
        sessions is ``r``, so a cluster's secondaries can serve it."""
        query = get_query(name)
        driver = self._require()
        with translated_errors(self.uri):
            async with driver.session(database=self._settings.neo4j_database) as session:
                result = await session.run(
                    "EXPLAIN " + query.text,  # type: ignore[arg-type]
                    dict.fromkeys(query.params),
                )
                summary = await result.consume()
        return str(summary.query_type)

    async def run_ddl(self, statement: str) -> None:
        """Run one schema statement (DDL cannot share a transaction with data writes)."""
        driver = self._require()
        with translated_errors(self.uri):
            self.sessions["WRITE"] += 1
            async with driver.session(
                database=self._settings.neo4j_database, default_access_mode=neo4j.WRITE_ACCESS
            ) as session:
                self.statements_run += 1
                result = await session.run(statement)  # type: ignore[arg-type]
                await result.consume()


# Values the driver already gives as plain Python; a list of only these (an embedding) is
# returned as it is, since walking 384 floats per memory through the recursion below cost more
# than the query itself when recall hydrated its candidates. For the same reason rows are not
# read with the driver's ``Record.data()``, whose exporter walks every float too (~0.8 ms of
# client CPU per 384-float embedding: 90 % of a recall's hydration); ``native`` gives the same
# values.
_PLAIN = frozenset({float, int, str, bool, type(None)})


def native(value: Any) -> Any:
    """Driver values → plain Python, as ``Record.data()`` gives them but with temporal types as
    datetime/date/time: containers recursively, a node as its properties, a relationship as
    ``(start properties, type, end properties)``, a path as alternating nodes and type names."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is dict:
        return {k: native(v) for k, v in value.items()}
    if kind is list:
        if set(map(type, value)) <= _PLAIN:
            return value
        return [native(v) for v in value]
    if isinstance(value, neo4j.time.DateTime | neo4j.time.Date | neo4j.time.Time):
        return value.to_native()
    if isinstance(value, neo4j.graph.Node):
        return native(dict(value))
    if isinstance(value, neo4j.graph.Relationship):
        start, end = value.start_node, value.end_node
        return (
            native(dict(start)) if start is not None else None,
            type(value).__name__,
            native(dict(end)) if end is not None else None,
        )
    if isinstance(value, neo4j.graph.Path):
        steps: list[Any] = [native(value.start_node)]
        for rel, node in zip(value.relationships, value.nodes[1:], strict=True):
            steps += [type(rel).__name__, native(node)]
        return steps
    if isinstance(value, dict):
        return {k: native(v) for k, v in value.items()}
    if isinstance(value, list):
        return [native(v) for v in value]
    return value


def _work(query: Query, params: dict[str, Any], client: GraphClient) -> Any:
    async def work(tx: neo4j.AsyncManagedTransaction) -> list[Row]:
        return await client._rows(await tx.run(query.text, params))  # type: ignore[arg-type]

    return work
