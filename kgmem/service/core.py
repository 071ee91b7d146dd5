"""The service's core: construction, connection and the shared argument checks of every concern.

Contract. :class:`ServiceCore` holds the settings, the graph gateway and the lazily-loaded models
(embedder, spaCy, the LLM client) and the ingestor built on them; constructing it does no I/O
(``load_models`` loads the models up front); it points :mod:`kgmem.tracing` at the
``otel_endpoint`` setting. ``writes_bookmarks`` gathers a consistency token.
``open``/``close`` (or ``async with``) connect and disconnect the graph client. ``_ns`` resolves
a namespace argument (``None`` → the setting; ``""`` is refused) and checks it;
:func:`check_id` checks an id argument. The concern mixins of :mod:`kgmem.service` build on
this class.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from types import TracebackType
from typing import Self

from kgmem import tracing
from kgmem.core.validation import check_namespace, check_text
from kgmem.graph import consistency
from kgmem.graph.client import GraphClient
from kgmem.ingest.ingestor import Ingestor
from kgmem.ml.embedder import Embedder
from kgmem.ml.llm import LLMClient
from kgmem.ml.nlp import Nlp
from kgmem.recall.claim_channel import table_for
from kgmem.settings import Settings


class ServiceCore:
    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.graph = GraphClient(self.settings)
        self.embedder = Embedder(self.settings)
        self.nlp = Nlp(self.settings)
        self.llm = LLMClient(self.settings)
        self.ingestor = Ingestor(self.settings, self.graph, self.embedder, self.nlp, self.llm)
        # process-wide, like the OpenTelemetry provider it sets up; a service without an
        # endpoint leaves tracing as another part of the process set it
        if self.settings.otel_endpoint:
            tracing.configure(self.settings.otel_endpoint)

    async def open(self) -> Self:
        await self.graph.connect()
        return self

    async def close(self) -> None:
        await self.graph.close()

    async def __aenter__(self) -> Self:
        return await self.open()

    async def __aexit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    def load_models(self) -> None:
        """Load the models a request would otherwise load on first use (blocking: seconds)."""
        self.embedder.embed_one("warm up")
        self.nlp.pipeline()
        table_for(self.embedder)  # the claim channel's question table

    @staticmethod
    def writes_bookmarks() -> AbstractContextManager[set[str]]:
        """A scope that gathers the bookmarks of the writes made inside it into the set it
        yields: the consistency token to pass to a later ``recall(bookmarks=...)``."""
        return consistency.collecting()

    def _ns(self, namespace: str | None) -> str:
        # Only None means "the setting": an empty name is a mistake to refuse, not the default.
        return check_namespace(self.settings.namespace if namespace is None else namespace)


def check_id(value: object, what: str = "id") -> str:
    return check_text(value, what=what, limit=200)
