"""The Python SDK: one ``Memory`` interface in two forms, a GraphQL client and the service itself.

Contract. :class:`Memory` is what an agent needs from kgmem: ``observe`` turns, ``remember`` a
fact, ``recall`` memories for a query, ``explain`` a recall. Two classes satisfy it with the same
method names, arguments and return records:

* :class:`KgmemClient` talks to a running ``kgmem serve`` over its GraphQL endpoint (httpx, async,
  an API key sent as ``Authorization: Bearer``);
* :class:`kgmem.Kgmem` *is* the in-process form (for notebooks and scripts next to the database):
  no client wrapper, the service itself.

Both return kgmem's own records — :class:`~kgmem.records.WriteReceipt`,
:class:`~kgmem.ingest.reports.ObserveReport`, :class:`~kgmem.recall.results.RecallResult`,
:class:`~kgmem.recall.xray.Xray` — so code written against ``Memory`` runs unchanged on either.
There is one implementation of each call, async; :func:`run_sync` runs any of them from plain
synchronous code (no sync twins). Failures are ``KgmemError``s: a rejected write or recall raises
the same typed error the service would (``InvalidInput``, ``NotFound``, ...), anything else from
the API is a :class:`RemoteError` with the server's code, and an unreachable server is
:class:`RemoteUnavailable`.

The package has one module a noun: :mod:`~kgmem.sdk.memory` (the interface, :func:`connect`,
:func:`run_sync`), :mod:`~kgmem.sdk.client` (the GraphQL client), :mod:`~kgmem.sdk.documents`
(the GraphQL documents it sends), :mod:`~kgmem.sdk.decoding` (the API's JSON back into kgmem's
records) and :mod:`~kgmem.sdk.errors` (the remote errors). ``from kgmem.sdk import ...`` is the
public path of the names below, so they are re-exported here.
"""

from __future__ import annotations

from kgmem.sdk.client import KgmemClient
from kgmem.sdk.errors import RemoteError, RemoteUnavailable
from kgmem.sdk.memory import Memory, connect, run_sync

__all__ = ["KgmemClient", "Memory", "RemoteError", "RemoteUnavailable", "connect", "run_sync"]
