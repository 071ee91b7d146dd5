"""The service's administration: schema, server info, counts, wipe, and export/import.

Contract. ``init_schema`` creates constraints and indexes (idempotent); ``stats`` counts a
namespace; ``server_info`` names the server's versions; ``wipe_namespace`` deletes one namespace;
``export_graph``/``import_graph`` move the graph in and out as JSONL through
:mod:`kgmem.transfer` (export lossless, import validated whole first, batched and idempotent).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kgmem.core.validation import check_namespace
from kgmem.graph import hub_names, repository
from kgmem.graph.schema import SchemaReport, apply_schema
from kgmem.service.core import ServiceCore
from kgmem.transfer import exporter, importer
from kgmem.transfer.records import BATCH_SIZE, ProgressFn, TransferReport


class AdminOps(ServiceCore):
    """Administration of the store: schema, counts, wipe, transfer."""

    async def init_schema(self) -> SchemaReport:
        return await apply_schema(self.graph)

    async def stats(self, *, namespace: str | None = None) -> dict[str, Any]:
        return await repository.get_namespace_stats(self.graph, namespace=self._ns(namespace))

    async def server_info(self) -> dict[str, str]:
        row = await repository.get_server_info(self.graph)
        return {k: str(v) for k, v in row.items()}

    async def wipe_namespace(self, namespace: str) -> int:

        ns = check_namespace(namespace)
        removed = await repository.delete_namespace(self.graph, namespace=ns)
        hub_names.forget(self.graph, ns)  # a namespace filled again gets its own hubs at once
        return removed

    async def export_graph(
        self,
        path: Path | str,
        *,
        namespace: str | None = None,
        progress: ProgressFn | None = None,
    ) -> TransferReport:
        """Write one namespace (every namespace when None) to a JSONL file, losslessly."""
        return await exporter.export_graph(
            self.graph, Path(path), namespace=namespace, progress=progress
        )

    async def import_graph(
        self,
        path: Path | str,
        *,
        batch_size: int = BATCH_SIZE,
        progress: ProgressFn | None = None,
    ) -> TransferReport:
        """Load a file written by ``export_graph``: validated whole first, then batched and
        idempotent (see ``kgmem.transfer``)."""
        return await importer.import_graph(
            self.graph, Path(path), batch_size=batch_size, progress=progress
        )
