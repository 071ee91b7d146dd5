"""``KgmemClient``: the SDK's remote ``Memory``, over a kgmem GraphQL endpoint.

Contract. Each ``Memory`` call (``observe``, ``remember``, ``recall``, ``explain``,
``entity_facts``) is one GraphQL request (httpx, async, the API key sent as ``Authorization:
Bearer``) and returns kgmem's own records. A ``Rejected`` result raises the typed error the
service would raise, any other API error a :class:`~kgmem.sdk.errors.RemoteError` with the
server's code, and an unreachable server :class:`~kgmem.sdk.errors.RemoteUnavailable`. ``async
with`` keeps one connection pool; without it every call opens and closes its own.
``last_bookmarks`` is the consistency token of the last response that wrote (its
``extensions.bookmarks``); ``recall(..., bookmarks=client.last_bookmarks)`` reads those writes on
a Neo4j cluster.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any, Unpack

import httpx

from kgmem.facts import EntityFacts
from kgmem.ingest.reports import ExtractionOutcome, ExtractionReport, ObserveReport
from kgmem.recall.options import RecallChoices, RecallOptions, options_of
from kgmem.recall.results import RecallResult
from kgmem.recall.xray import Xray
from kgmem.records import Turn, TurnSkip, WriteReceipt
from kgmem.sdk.decoding import facts_of, hit_of, receipt_of, xray_of
from kgmem.sdk.documents import FACTS, OBSERVE, RECALL, REMEMBER, recall_variables
from kgmem.sdk.errors import HTTP_CODES, REJECTED_ERRORS, RemoteError, RemoteUnavailable


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
        # The consistency token of the last response that wrote (its extensions.bookmarks).
        self.last_bookmarks: tuple[str, ...] = ()

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
        # Encoded here, not by httpx: its UTF-8 encoder raises on a lone surrogate, whereas an
        # ASCII JSON body carries it as \ud800 for the server to refuse as ``invalid_input``
        # naming the field — the same error the in-process service raises.
        sent = json.dumps({"query": document, "variables": dict(variables)}).encode("ascii")
        headers = {"Content-Type": "application/json"}
        try:
            if self._http is not None:
                response = await self._http.post(self.endpoint, content=sent, headers=headers)
            else:
                async with self._new_http() as http:
                    response = await http.post(self.endpoint, content=sent, headers=headers)
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
            code = refusal.get("code") or HTTP_CODES.get(response.status_code)
            raise RemoteError(f"{refusal['message']} (HTTP {response.status_code})", code)
        if response.status_code != 200 or not isinstance(body, dict) or body.get("data") is None:
            raise RemoteError(
                f"the kgmem API answered HTTP {response.status_code} without data",
                HTTP_CODES.get(response.status_code),
            )
        written = (body.get("extensions") or {}).get("bookmarks")
        if written:
            self.last_bookmarks = tuple(written)
        data: dict[str, Any] = body["data"]
        return data

    async def _field(self, document: str, variables: Mapping[str, Any], name: str) -> Any:
        """One union-typed root field; a ``Rejected`` member raises its typed error."""
        result = (await self.execute(document, variables))[name]
        if result.get("__typename") == "Rejected":
            error = REJECTED_ERRORS.get(result.get("code", ""))
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
        wait: float = 0.0,
    ) -> ObserveReport:
        """Send turns; they are stored as episodes and extracted when a trigger fires (by a
        worker, under a server in worker mode: ``wait`` seconds, capped by the server, waits for
        it; ``status`` says whether it finished)."""
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
        variables = {
            "turns": payload,
            "flush": flush,
            "strategy": strategy,
            "namespace": namespace,
            "waitSeconds": wait,
        }
        r = await self._field(OBSERVE, variables, "observe")
        extraction, outcome = None, None
        skips = [TurnSkip(k["episodeId"], tuple(k["reasons"])) for k in r.get("skipped", [])]
        if r.get("waited"):
            outcome = ExtractionOutcome(
                extracted=r["extractedEpisodes"],
                pending=r["pendingEpisodes"],
                skips=tuple(skips),
                memory_ids=tuple(r["memoryIds"]),
                engine=r["engine"],
            )
        elif r.get("engine") is not None:
            extraction = ExtractionReport(
                receipts=[receipt_of(x) for x in r["receipts"]],
                episodes=r["extractedEpisodes"],
                skipped_turns=r["skippedTurns"],
                skips=skips,
                engine=r["engine"],
                conflicts=r["conflicts"],
                deferred=r["deferred"],
            )
        return ObserveReport(
            episode_ids=tuple(r["episodeIds"]),
            new_episodes=r["newEpisodes"],
            trigger=r["trigger"],
            extraction=extraction,
            status=r.get("status") or ("extracted" if extraction else "buffered"),
            outcome=outcome,
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
        return receipt_of(r["receipt"])

    async def recall(
        self,
        query: str,
        options: RecallOptions | None = None,
        *,
        namespace: str | None = None,
        bookmarks: Sequence[str] = (),
        explain: bool = False,
        **choices: Unpack[RecallChoices],
    ) -> RecallResult:
        """Ranked memories; options as a record or keywords, as for ``Kgmem.recall`` (validated
        here, before any request); ``explain`` asks the server for the X-ray."""
        chosen = options_of(options, choices)
        variables = recall_variables(query, namespace, chosen, explain=explain, bookmarks=bookmarks)
        r = await self._field(RECALL, variables, "recall")
        hits = tuple(hit_of(h) for h in r["hits"])
        raw = (r.get("xray") or {}).get("raw")
        xray = xray_of(raw) if raw else Xray(query=query, intent="")
        return RecallResult(hits=hits, xray=xray, skipped=r.get("skipped"))

    async def explain(
        self,
        query: str,
        options: RecallOptions | None = None,
        *,
        namespace: str | None = None,
        bookmarks: Sequence[str] = (),
        **choices: Unpack[RecallChoices],
    ) -> Xray:
        """The X-ray of a recall; with keyword options dry unless ``dry=False`` (explaining is
        not an access)."""
        if options is None:
            choices.setdefault("dry", True)
        chosen = options_of(options, choices)
        result = await self.recall(
            query, chosen, namespace=namespace, bookmarks=bookmarks, explain=True
        )
        return result.xray

    async def entity_facts(
        self, entity: str, *, slot: str | None = None, namespace: str | None = None
    ) -> EntityFacts:
        """An entity's current attributes from its memories' claims, with their history."""
        variables = {"entity": entity, "slot": slot, "namespace": namespace}
        return facts_of(await self._field(FACTS, variables, "facts"))
