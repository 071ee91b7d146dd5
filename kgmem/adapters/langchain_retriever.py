"""``KgmemRetriever``: a LangChain retriever over kgmem ``recall``.

Contract. ``invoke(query)`` / ``ainvoke(query)`` return one ``Document`` per recall hit, best
first: ``page_content`` is the memory's text, ``id`` its kgmem id, and ``metadata`` carries
``id``, ``namespace``, ``score``, ``category``, ``status``, ``kind`` (``memory``, or ``episode``
for a turn no memory stands for), ``valid_from``/``valid_until`` (ISO-8601 or ``None``) and
``turn_ids`` (the source episodes). ``memory`` is either SDK form: an open ``Kgmem`` (in
process; the async call runs on its loop), a :class:`~kgmem.adapters.bridge.Bridge` (in process,
sync and async from any thread) or a ``KgmemClient`` (remote; both calls work anywhere).
``namespace``, ``k`` and ``options`` (recall's: profile, categories, as_of, ...) are passed to
every recall.
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, Field

from kgmem.adapters.bridge import Bridge
from kgmem.errors import KgmemError
from kgmem.recall.options import RecallOptions
from kgmem.recall.results import RecallHit, RecallResult
from kgmem.sdk import KgmemClient, run_sync


def document_of(hit: RecallHit, namespace: str | None) -> Document:
    """The LangChain document of one recall hit."""
    return Document(
        id=hit.memory_id,
        page_content=hit.content,
        metadata={
            "id": hit.memory_id,
            "namespace": namespace,
            "score": hit.score,
            "category": hit.category,
            "status": hit.status,
            "kind": hit.kind,
            "valid_from": hit.valid_from.isoformat() if hit.valid_from else None,
            "valid_until": hit.valid_until.isoformat() if hit.valid_until else None,
            "turn_ids": list(hit.turn_ids),
        },
    )


class KgmemRetriever(BaseRetriever):
    """Documents from kgmem recall; see the module docstring for what they carry."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    memory: Any  # Kgmem | Bridge | KgmemClient (Any: pydantic need not know the classes)
    namespace: str | None = None
    k: int = 5
    options: dict[str, Any] = Field(default_factory=dict)

    def _recall(self, query: str) -> Coroutine[Any, Any, RecallResult]:
        service = self.memory.service if isinstance(self.memory, Bridge) else self.memory
        options = RecallOptions.parse(limit=self.k, **self.options)  # typed errors, no I/O
        recall: Coroutine[Any, Any, RecallResult] = service.recall(
            query, options, namespace=self.namespace
        )
        return recall

    def _documents(self, result: RecallResult) -> list[Document]:
        namespace = self.namespace
        if namespace is None and not isinstance(self.memory, KgmemClient):
            service = self.memory.service if isinstance(self.memory, Bridge) else self.memory
            namespace = service.settings.namespace
        return [document_of(hit, namespace) for hit in result.hits]

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        if isinstance(self.memory, Bridge):
            return self._documents(self.memory.call(self._recall(query)))
        if isinstance(self.memory, KgmemClient):
            return self._documents(run_sync(self._recall(query)))
        raise KgmemError(
            "a synchronous retriever call on the in-process service needs a Bridge "
            "(kgmem.adapters.bridge.serving); with an open Kgmem use ainvoke"
        )

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        if isinstance(self.memory, Bridge):
            return self._documents(await self.memory.acall(self._recall(query)))
        return self._documents(await self._recall(query))
