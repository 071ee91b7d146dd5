"""The Python SDK: one ``Memory`` interface in two forms, a GraphQL client and the service itself.

Contract. :class:`Memory` is what an agent needs from kgmem: ``observe`` turns, ``remember`` a
fact, ``recall`` memories for a query, ``explain`` a recall. Two classes satisfy it with the same
method names, arguments and return records:

* :class:`KgmemClient` talks to a running ``kgmem serve`` over its GraphQL endpoint (httpx, async,
  an API key sent as ``Authorization: Bearer``);
* :class:`kgmem.Kgmem` *is* the in-process form (for notebooks and scripts next to the database):
  no client wrapper, the service itself.

Both return kgmem's own records — :class:`~kgmem.records.WriteReceipt`,
:class:`~kgmem.ingest.intake.ObserveReport`, :class:`~kgmem.recall.engine.RecallResult`,
:class:`~kgmem.recall.xray.Xray` — so code written against ``Memory`` runs unchanged on either.
There is one implementation of each call, async; :func:`run_sync` runs any of them from plain
synchronous code (no sync twins). Failures are ``KgmemError``s: a rejected write or recall raises
the same typed error the service would (``InvalidInput``, ``NotFound``, ...), anything else from
the API is a :class:`RemoteError` with the server's code, and an unreachable server is
:class:`RemoteUnavailable`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import AsyncIterator, Coroutine, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from types import TracebackType
from typing import Any, Protocol, TypeVar, runtime_checkable

import httpx

from kgmem.errors import ConcurrentWrite, InvalidInput, KgmemError, NotFound
from kgmem.ingest.ingestor import ExtractionReport
from kgmem.ingest.intake import ObserveReport
from kgmem.recall.engine import RecallHit, RecallResult
from kgmem.recall.xray import ChannelEvidence, Dropped, DropReason, HitExplain, PathStep, Xray
from kgmem.records import Turn, WriteReceipt
from kgmem.service import Kgmem
from kgmem.settings import Settings

T = TypeVar("T")


@runtime_checkable
class Memory(Protocol):
    """What kgmem offers an agent; ``Kgmem`` (in process) and ``KgmemClient`` (remote) both are."""

    async def observe(
        self, turns: Sequence[Turn], *, namespace: str | None = None, flush: bool = False
    ) -> ObserveReport: ...

    async def remember(
        self, text: str, *, namespace: str | None = None, category: str = "fact"
    ) -> WriteReceipt: ...

    async def recall(
        self, query: str, *, namespace: str | None = None, limit: int = 10, **options: Any
    ) -> RecallResult: ...

    async def explain(
        self, query: str, *, namespace: str | None = None, limit: int = 10, **options: Any
    ) -> Xray: ...


class RemoteError(KgmemError):
    """The API refused or failed a request; ``code`` is its stable error code."""

    code = "remote_error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code:
            self.code = code


class RemoteUnavailable(RemoteError):
    """The API could not be reached (not running, wrong URL, network, timeout)."""

    code = "remote_unavailable"


# A ``Rejected`` result's code → the error the in-process service raises for the same failure.
_REJECTED: dict[str, type[KgmemError]] = {
    InvalidInput.code: InvalidInput,
    NotFound.code: NotFound,
    ConcurrentWrite.code: ConcurrentWrite,
}

# Recall options the GraphQL ``recall`` field accepts, and the argument each maps to.
_RECALL_ARGS = {"profile": "profile", "mode": "mode", "as_of": "asOf", "session_id": "sessionId"}
_RECALL_FILTERS = {
    "categories": "categories",
    "tiers": "tiers",
    "min_confidence": "minConfidence",
    "include_superseded": "includeSuperseded",
}

_RECEIPT = "action memoryId reason relatedIds entities"
_REJECTED_FIELDS = "... on Rejected { reason code }"

OBSERVE = f"""
mutation Observe($turns: [TurnInput!]!, $flush: Boolean!, $strategy: String, $namespace: String) {{
  observe(turns: $turns, flush: $flush, strategy: $strategy, namespace: $namespace) {{
    __typename
    ... on ObserveOk {{
      episodeIds newEpisodes trigger extractedEpisodes skippedTurns engine conflicts deferred
      receipts {{ {_RECEIPT} }}
    }}
    {_REJECTED_FIELDS}
  }}
}}"""

REMEMBER = f"""
mutation Remember($input: RememberInput!) {{
  remember(input: $input) {{
    __typename
    ... on RememberOk {{ receipt {{ {_RECEIPT} }} }}
    {_REJECTED_FIELDS}
  }}
}}"""

RECALL = f"""
query Recall($query: String!, $limit: Int!, $dry: Boolean!, $explain: Boolean!,
             $namespace: String, $profile: String, $mode: String, $filters: RecallFilters,
             $asOf: DateTime, $sessionId: String) {{
  recall(query: $query, limit: $limit, dry: $dry, explain: $explain, namespace: $namespace,
         profile: $profile, mode: $mode, filters: $filters, asOf: $asOf, sessionId: $sessionId) {{
    __typename
    ... on RecallOk {{
      skipped
      hits {{
        memoryId content score category status injection turnIds validFrom validUntil
        channels {{ channel rank rawScore }}
      }}
      xray {{ raw }}
    }}
    {_REJECTED_FIELDS}
  }}
}}"""


class KgmemClient:
    """Async client of a kgmem GraphQL endpoint; satisfies :class:`Memory`.

    Use ``async with KgmemClient(url, key) as km:`` to keep one connection pool for many calls;
    without it every call opens and closes its own, which is what lets :func:`run_sync` drive a
    client from plain code (each call may run on a different event loop).
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        timeout_s: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        base = base_url.rstrip("/")
        self.endpoint = base if base.endswith("/graphql") else base + "/graphql"
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._timeout = timeout_s
        self._transport = transport
        self._http: httpx.AsyncClient | None = None

    def _new_http(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            headers=self._headers, timeout=self._timeout, transport=self._transport
        )

    async def __aenter__(self) -> KgmemClient:
        if self._http is None:
            self._http = self._new_http()
        return self

    async def __aexit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    # --- the one GraphQL call -------------------------------------------------------------------

    async def execute(self, document: str, variables: Mapping[str, Any]) -> dict[str, Any]:
        """Run one GraphQL document; its ``data``, or a :class:`RemoteError` for its errors."""
        try:
            if self._http is not None:
                response = await self._http.post(
                    self.endpoint, json={"query": document, "variables": dict(variables)}
                )
            else:
                async with self._new_http() as http:
                    response = await http.post(
                        self.endpoint, json={"query": document, "variables": dict(variables)}
                    )
        except httpx.TransportError as exc:
            raise RemoteUnavailable(
                f"cannot reach the kgmem API at {self.endpoint}: {type(exc).__name__} "
                "(is `kgmem serve` running?)"
            ) from None
        try:
            body = response.json()
        except ValueError:
            body = None
        errors = body.get("errors") if isinstance(body, dict) else None
        if errors:
            first = errors[0] if isinstance(errors[0], dict) else {}
            code = (first.get("extensions") or {}).get("code")
            raise RemoteError(str(first.get("message", "the API returned an error")), code)
        refusal = body.get("error") if isinstance(body, dict) else None
        if isinstance(refusal, dict) and refusal.get("message"):  # an HTTP-level refusal
            code = refusal.get("code") or _HTTP_CODES.get(response.status_code)
            raise RemoteError(f"{refusal['message']} (HTTP {response.status_code})", code)
        if response.status_code != 200 or not isinstance(body, dict) or body.get("data") is None:
            raise RemoteError(
                f"the kgmem API answered HTTP {response.status_code} without data",
                _HTTP_CODES.get(response.status_code),
            )
        data: dict[str, Any] = body["data"]
        return data

    async def _field(self, document: str, variables: Mapping[str, Any], name: str) -> Any:
        """One union-typed root field; a ``Rejected`` member raises its typed error."""
        result = (await self.execute(document, variables))[name]
        if result.get("__typename") == "Rejected":
            error = _REJECTED.get(result.get("code", ""))
            if error is not None:
                raise error(result["reason"])
            raise RemoteError(result["reason"], result.get("code"))
        return result

    # --- Memory -----------------------------------------------------------------------------------

    async def observe(
        self,
        turns: Sequence[Turn],
        *,
        namespace: str | None = None,
        flush: bool = False,
        strategy: str | None = None,
    ) -> ObserveReport:
        """Send turns; they are stored as episodes and extracted when a trigger fires."""
        payload = [
            {
                "text": t.text,
                "role": t.role,
                "speaker": t.speaker,
                "sessionId": t.session_id,
                "at": t.at.isoformat() if t.at else None,
                "turnId": t.turn_id,
            }
            for t in turns
        ]
        variables = {"turns": payload, "flush": flush, "strategy": strategy, "namespace": namespace}
        r = await self._field(OBSERVE, variables, "observe")
        extraction = None
        if r.get("engine") is not None:
            extraction = ExtractionReport(
                receipts=[_receipt(x) for x in r["receipts"]],
                episodes=r["extractedEpisodes"],
                skipped_turns=r["skippedTurns"],
                engine=r["engine"],
                conflicts=r["conflicts"],
                deferred=r["deferred"],
            )
        return ObserveReport(
            episode_ids=tuple(r["episodeIds"]),
            new_episodes=r["newEpisodes"],
            trigger=r["trigger"],
            extraction=extraction,
        )

    async def remember(
        self,
        text: str,
        *,
        namespace: str | None = None,
        category: str = "fact",
        source: str = "human",
        strategy: str | None = None,
    ) -> WriteReceipt:
        """Store one explicit memory as said."""
        payload = {
            "text": text,
            "category": category,
            "source": source,
            "strategy": strategy,
            "namespace": namespace,
        }
        r = await self._field(REMEMBER, {"input": payload}, "remember")
        return _receipt(r["receipt"])

    async def recall(
        self, query: str, *, namespace: str | None = None, limit: int = 10, **options: Any
    ) -> RecallResult:
        """Ranked memories; options: profile, mode, categories, tiers, min_confidence,
        include_superseded, as_of, dry, session_id (as for ``Kgmem.recall``), explain."""
        variables = _recall_variables(query, namespace, limit, options)
        r = await self._field(RECALL, variables, "recall")
        hits = tuple(_hit(h) for h in r["hits"])
        raw = (r.get("xray") or {}).get("raw")
        xray = xray_of(raw) if raw else Xray(query=query, intent="")
        return RecallResult(hits=hits, xray=xray, skipped=r.get("skipped"))

    async def explain(
        self, query: str, *, namespace: str | None = None, limit: int = 10, **options: Any
    ) -> Xray:
        """The X-ray of a recall; dry unless ``dry=False`` (explaining is not an access)."""
        options.setdefault("dry", True)
        options["explain"] = True
        return (await self.recall(query, namespace=namespace, limit=limit, **options)).xray


_HTTP_CODES = {
    401: "unauthorized",
    403: "forbidden",
    413: "too_large",
    429: "rate_limited",
    503: "unavailable",
}


def _recall_variables(
    query: str, namespace: str | None, limit: int, options: dict[str, Any]
) -> dict[str, Any]:
    opts = dict(options)
    variables: dict[str, Any] = {
        "query": query,
        "limit": limit,
        "namespace": namespace,
        "dry": bool(opts.pop("dry", False)),
        "explain": bool(opts.pop("explain", False)),
    }
    for name, arg in _RECALL_ARGS.items():
        value = opts.pop(name, None)
        variables[arg] = value.isoformat() if isinstance(value, datetime) else value
    filters = {arg: opts.pop(name) for name, arg in _RECALL_FILTERS.items() if name in opts}
    if "categories" in filters or "tiers" in filters:
        for key in ("categories", "tiers"):
            if filters.get(key) is not None:
                filters[key] = list(filters[key])
    variables["filters"] = filters or None
    if opts:
        raise InvalidInput(f"recall options not available over the API: {sorted(opts)}")
    return variables


def _receipt(r: Mapping[str, Any]) -> WriteReceipt:
    return WriteReceipt(
        action=r["action"],
        memory_id=r["memoryId"],
        reason=r.get("reason") or "",
        related_ids=tuple(r.get("relatedIds") or ()),
        entities=tuple(r.get("entities") or ()),
    )


def _dt(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _hit(h: Mapping[str, Any]) -> RecallHit:
    return RecallHit(
        memory_id=h["memoryId"],
        content=h["content"],
        score=float(h["score"]),
        category=h["category"],
        status=h["status"],
        injection=h["injection"],
        turn_ids=tuple(h.get("turnIds") or ()),
        valid_from=_dt(h.get("validFrom")),
        valid_until=_dt(h.get("validUntil")),
        channels=tuple(
            ChannelEvidence(c["channel"], int(c["rank"]), float(c["rawScore"]))
            for c in h.get("channels") or ()
        ),
    )


def xray_of(raw: Mapping[str, Any]) -> Xray:
    """The ``Xray`` record back from ``Xray.to_dict()`` (the API's ``xray.raw``)."""
    hits = tuple(
        HitExplain(
            memory_id=h["memory_id"],
            content=h["content"],
            final_score=float(h["final_score"]),
            contributions={k: float(v) for k, v in h["contributions"].items()},
            channels=tuple(
                ChannelEvidence(c["channel"], int(c["rank"]), float(c["raw_score"]))
                for c in h.get("channels", ())
            ),
            path=tuple(
                PathStep(
                    p["node_id"],
                    p["label"],
                    p["name"],
                    p.get("edge_type"),
                    p.get("edge_confidence"),
                )
                for p in h.get("path", ())
            ),
            valid_from=_dt(h.get("valid_from")),
            valid_until=_dt(h.get("valid_until")),
            status=h.get("status", "active"),
            episodes=tuple(h.get("episodes", ())),
            factors={k: float(v) for k, v in (h.get("factors") or {}).items()},
            injection=h.get("injection"),
        )
        for h in raw.get("hits", ())
    )
    dropped = tuple(
        Dropped(
            d["memory_id"],
            d["content"],
            DropReason(d["reason"]),
            d.get("detail", ""),
            d.get("best_score"),
        )
        for d in raw.get("dropped", ())
    )
    return Xray(
        query=raw["query"],
        intent=raw["intent"],
        sub_queries=tuple(raw.get("sub_queries", ())),
        hyde=tuple(raw.get("hyde", ())),
        hits=hits,
        dropped=dropped,
        timings={k: float(v) for k, v in (raw.get("timings") or {}).items()},
        queries_run=tuple(raw.get("queries_run", ())),
    )


# --- choosing a form, and running from synchronous code ------------------------------------------


@asynccontextmanager
async def connect(
    url: str | None = None, *, api_key: str | None = None, settings: Settings | None = None
) -> AsyncIterator[Memory]:
    """A ``Memory``: the remote client when ``url`` is given, else the in-process service.

    ``async with connect() as memory:`` in a notebook opens ``Kgmem`` on the configured Neo4j;
    ``async with connect("http://127.0.0.1:8000", api_key=key) as memory:`` talks to the API.
    """
    if url is not None:
        async with KgmemClient(url, api_key) as client:
            yield client
    else:
        async with Kgmem(settings or Settings()) as km:
            yield km


def run_sync(work: Coroutine[Any, Any, T]) -> T:
    """Run one SDK call from synchronous code: ``run_sync(client.recall("..."))``.

    With no event loop running it uses ``asyncio.run``; inside one (a Jupyter cell) it runs the
    call on a fresh loop in a worker thread. A ``KgmemClient`` outside ``async with`` works
    either way; the in-process ``Kgmem`` holds a loop-bound driver, so in notebooks ``await`` it.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(work)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, work).result()


def _conforms(in_process: Kgmem, remote: KgmemClient) -> tuple[Memory, Memory]:
    """Never called: mypy checks here that both forms satisfy ``Memory``."""
    return in_process, remote
