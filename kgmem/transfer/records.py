"""The export format's constants and typed records: what a kgmem JSONL file may hold.

Contract. ``FORMAT``/``VERSION`` name the file format; ``NODE_LABELS`` and ``REL_TYPES`` are the
closed lists of labels and relationship types an export may hold (checked before anything reaches
Cypher); the frozen records (:class:`Header`, :class:`NodeRecord`, :class:`EdgeRecord`,
:class:`EndRecord`) are one parsed line each, and :class:`TransferReport` is what an export or
import tells its caller. :func:`report_progress` is the one place a transfer calls its optional
progress callback. Pure data: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kgmem.taxonomy.relation_tables import MEMORY_REL_TYPE, STRUCTURAL_REL_TYPES

FORMAT = "kgmem-export"
VERSION = 1
# The node labels an export may hold; import_nodes.cypher / import_edges.cypher have one literal
# branch per label (a dynamic label would cost a full node scan per row: no index is used).
NODE_LABELS: tuple[str, ...] = (
    "Memory",
    "Episode",
    "Entity",
    "Box",
    "Trace",
    "Topic",
    "StatusChange",
    "TierChange",  # the lifecycle's tier audit
    "MergedEntity",  # an entity retired by a (reversible) merge
    "Lease",  # the consolidation lease: exported too, so a copy is the whole namespace
    "NamespaceState",
)
# SAME_AS links a MergedEntity to its survivor (the lifecycle's entity merge record).
REL_TYPES: frozenset[str] = (
    frozenset(MEMORY_REL_TYPE.values()) | STRUCTURAL_REL_TYPES | frozenset({"SAME_AS"})
)
BATCH_SIZE = 500
PAGE_SIZE = 1000

# Called with (records done, records in total) as a transfer advances.
ProgressFn = Callable[[int, int], None]


@dataclass(frozen=True)
class Endpoint:
    label: str
    id: str


@dataclass(frozen=True)
class Header:
    line: int
    namespace: str | None
    exported_at: str


@dataclass(frozen=True)
class NodeRecord:
    line: int
    label: str
    props: dict[str, Any]  # decoded: Python values the driver sends as Neo4j types

    @property
    def id(self) -> str:
        return str(self.props["id"])

    @property
    def namespace(self) -> str:
        return str(self.props["namespace"])


@dataclass(frozen=True)
class EdgeRecord:
    line: int
    type: str
    start: Endpoint
    end: Endpoint
    props: dict[str, Any]
    key: str  # digest of (type, start, end, canonical properties): identical edges share it


@dataclass(frozen=True)
class EndRecord:
    line: int
    nodes: int
    edges: int


Record = Header | NodeRecord | EdgeRecord | EndRecord


@dataclass(frozen=True)
class TransferReport:
    """What an export or import did."""

    path: str
    nodes: int  # node records written (export) or read (import)
    edges: int  # relationship records written or read
    namespaces: tuple[str, ...]
    seconds: float
    nodes_created: int = 0  # import: nodes that did not exist before (the rest were updated)
    edges_created: int = 0  # import: relationships created (0 when the graph already had them)


def report_progress(progress: ProgressFn | None, done: int, total: int) -> None:
    if progress is not None:
        progress(done, total)
