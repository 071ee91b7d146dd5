"""``Kgmem``: the in-process memory service (SDK form), owning the graph client and the models.

One object per process (or per app lifespan): it holds the settings, the graph gateway and the
lazily-loaded models, and exposes the operations — ``remember``, ``recall`` and friends — as
async methods that the CLI, the API and notebooks all call. Constructing it does no I/O; use
``async with Kgmem(settings) as km:`` (or ``await km.open()`` / ``await km.close()``).
"""

from __future__ import annotations

from datetime import datetime
from types import TracebackType

from kgmem.graph import repository
from kgmem.graph.client import GraphClient
from kgmem.graph.schema import SchemaReport, apply_schema
from kgmem.ingest.remember import remember
from kgmem.ml.embedder import Embedder
from kgmem.ml.nlp import Nlp
from kgmem.recall.engine import recall
from kgmem.records import Hit, WriteReceipt
from kgmem.settings import Settings


class Kgmem:
    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.graph = GraphClient(self.settings)
        self.embedder = Embedder(self.settings)
        self.nlp = Nlp(self.settings)

    async def open(self) -> Kgmem:
        await self.graph.connect()
        return self

    async def close(self) -> None:
        await self.graph.close()

    async def __aenter__(self) -> Kgmem:
        return await self.open()

    async def __aexit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def init_schema(self) -> SchemaReport:
        return await apply_schema(self.graph)

    async def remember(
        self,
        text: str,
        *,
        namespace: str | None = None,
        category: str = "fact",
        source: str = "human",
        now: datetime | None = None,
    ) -> WriteReceipt:
        return await remember(
            self.graph,
            self.embedder,
            self.nlp,
            text=text,
            namespace=namespace or self.settings.namespace,
            category=category,
            source=source,
            now=now,
        )

    async def recall(
        self, query: str, *, namespace: str | None = None, limit: int = 10
    ) -> list[Hit]:
        return await recall(
            self.graph,
            self.embedder,
            query=query,
            namespace=namespace or self.settings.namespace,
            limit=limit,
        )

    async def server_info(self) -> dict[str, str]:
        row = await repository.get_server_info(self.graph)
        return {k: str(v) for k, v in row.items()}

    async def wipe_namespace(self, namespace: str) -> int:
        from kgmem.validation import check_namespace

        return await repository.delete_namespace(self.graph, namespace=check_namespace(namespace))
