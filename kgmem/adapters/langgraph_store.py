"""``KgmemStore``: a LangGraph ``BaseStore`` whose items are kgmem memories.

Contract (the mapping, also in ``docs/integrations.md``):

* namespace: the tuple's labels joined by ``.`` is the kgmem namespace (``("users", "alice")``
  → ``users.alice``), so namespaces are isolated exactly as kgmem's are, and a search or
  ``list_namespaces`` prefix is a dotted-name prefix (:mod:`kgmem.adapters.mapping`);
* item: ``put(ns, key, value)`` remembers the value's text (its ``index`` fields, by default
  the first of ``text``/``content``/``memory``) as an explicit memory through kgmem's write gate,
  on an episode that keeps the key and the value verbatim (:mod:`kgmem.service.items`). ``get``
  returns that value as put; putting a key again replaces the item (``created_at`` kept);
  ``delete`` (or ``put(..., None)``) erases the memories only that item gave rise to;
* search: with a ``query`` it is kgmem ``recall`` in each namespace under the prefix, the items
  behind the hits ranked by the hit's score (so superseded facts are not found, while their
  items stay readable by key); without one, the items most recently written first. ``filter``
  is applied to the values (:func:`~kgmem.adapters.mapping.matches`), then ``offset``/``limit``.

Not supported, refused with ``InvalidInput`` rather than ignored: ``index=False`` (every item is
a memory) and a TTL. Ops of one batch run in order. The async methods run on the service's loop;
the synchronous ones need the store built by :meth:`KgmemStore.serving` (or on a
:class:`~kgmem.adapters.bridge.Bridge`), which owns that loop in a thread.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    NotProvided,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    validate_op_namespace,
)

from kgmem.adapters import mapping
from kgmem.adapters.bridge import Bridge, serving
from kgmem.errors import InvalidInput, KgmemError
from kgmem.records import StoredItem
from kgmem.service import Kgmem
from kgmem.settings import Settings

# recall answers at most 100 hits; a page past that is read from the most relevant 100
RECALL_CAP = 100
# a search with a filter reads this many candidates before filtering them
FILTER_POOL = 1000


def _item(stored: StoredItem, cls: type[Item] = Item, **extra: Any) -> Any:
    return cls(
        namespace=mapping.from_kgmem(stored.namespace),
        key=stored.key,
        value=json.loads(stored.value_json),
        created_at=stored.created_at,
        updated_at=stored.updated_at,
        **extra,
    )


class KgmemStore(BaseStore):
    """A LangGraph store on kgmem. ``service``: an open ``Kgmem`` (async use on its loop) or a
    ``Bridge`` (sync and async use); ``category``: the memory category items are stored as."""

    supports_ttl = False

    def __init__(self, service: Kgmem | Bridge, *, category: str = "fact") -> None:
        self._bridge = service if isinstance(service, Bridge) else None
        self._km = service.service if isinstance(service, Bridge) else service
        self._category = category

    @classmethod
    @contextmanager
    def serving(cls, settings: Settings | None = None, **options: Any) -> Iterator[KgmemStore]:
        """A store that opens its own in-process service (for synchronous graphs)."""
        with serving(settings) as bridge:
            yield cls(bridge, **options)

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        if self._bridge is None:
            raise KgmemError(
                "synchronous store calls need KgmemStore.serving(...) (a service on its own "
                "loop); with an open Kgmem use the async methods (aget, aput, asearch, ...)"
            )
        return self._bridge.call(self._run(list(ops)))

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        work = self._run(list(ops))
        return await (self._bridge.acall(work) if self._bridge is not None else work)

    async def _run(self, ops: list[Op]) -> list[Result]:
        for op in ops:  # every op is checked before the first one runs
            validate_op_namespace(op)
            self._check(op)
        results: list[Result] = []
        for op in ops:
            results.append(await self._one(op))
        return results

    def _check(self, op: Op) -> None:
        if isinstance(op, PutOp):
            mapping.to_kgmem(op.namespace)
            if op.index is False and op.value is not None:
                raise InvalidInput("index=False is not supported: every kgmem item is a memory")
            if op.ttl is not None and not isinstance(op.ttl, NotProvided):
                raise InvalidInput("kgmem items have no TTL (lifecycle decay ages memories)")
        elif isinstance(op, GetOp):
            mapping.to_kgmem(op.namespace)
        elif isinstance(op, SearchOp):
            mapping.to_prefix(op.namespace_prefix)
            mapping.check_filter(op.filter)

    async def _one(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            found = await self._km.get_items([op.key], namespace=mapping.to_kgmem(op.namespace))
            return _item(found[0]) if found else None
        if isinstance(op, PutOp):
            await self._put(op)
            return None
        if isinstance(op, SearchOp):
            return await self._search(op)
        if isinstance(op, ListNamespacesOp):
            return await self._namespaces(op)
        raise InvalidInput(f"unknown store operation {type(op).__name__}")

    async def _put(self, op: PutOp) -> None:
        ns = mapping.to_kgmem(op.namespace)
        if op.value is None:
            await self._km.delete_items([op.key], namespace=ns)
            return
        fields = op.index if isinstance(op.index, list) else None
        await self._km.put_item(
            op.key,
            op.value,
            text=mapping.item_text(op.value, fields),
            namespace=ns,
            category=self._category,
        )

    async def _search(self, op: SearchOp) -> list[SearchItem]:
        namespaces = await self._km.item_namespaces(mapping.to_prefix(op.namespace_prefix))
        wanted = op.offset + op.limit
        pool = FILTER_POOL if op.filter else wanted
        if not op.query:
            page = await self._km.item_page(namespaces, limit=max(1, min(pool, 10_000)))
            found: list[tuple[float | None, StoredItem]] = [(None, s) for s in page]
        else:
            found = await self._recalled(op.query, namespaces, min(max(pool, 1), RECALL_CAP))
        kept = [
            _item(s, SearchItem, score=score)
            for score, s in found
            if mapping.matches(json.loads(s.value_json), op.filter)
        ]
        return kept[op.offset : op.offset + op.limit]

    async def _recalled(
        self, query: str, namespaces: list[str], limit: int
    ) -> list[tuple[float | None, StoredItem]]:
        best: dict[tuple[str, str], tuple[float, StoredItem]] = {}
        for ns in namespaces:
            result = await self._km.recall(query, namespace=ns, limit=limit)
            # A hit's turn ids are its source turns' caller ids: an item's is its key. The item
            # counts only when the hit is one of its memories (a conversation turn may share
            # an id with a key); it is as relevant as the best such hit.
            keys = sorted({t for hit in result.hits for t in hit.turn_ids})
            for stored in await self._km.get_items(keys, namespace=ns) if keys else []:
                own = {m.memory_id for m in stored.memories} | {stored.episode_id}
                scores = [h.score for h in result.hits if h.memory_id in own]
                here = best.get((ns, stored.key))
                if scores and (here is None or max(scores) > here[0]):
                    best[(ns, stored.key)] = (max(scores), stored)
        ranked = sorted(best.values(), key=lambda p: (-p[0], p[1].namespace, p[1].key))
        return [(score, stored) for score, stored in ranked]

    async def _namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        conditions = [(c.match_type, tuple(c.path)) for c in op.match_conditions or ()]
        # the one prefix the graph can narrow by: the leading labels before any wildcard
        lead: list[str] = []
        for kind, labels in conditions:
            if kind == "prefix":
                for label in labels:
                    if label == "*":
                        break
                    lead.append(label)
                break
        held = await self._km.item_namespaces(mapping.to_prefix(lead))
        return mapping.match_namespaces(
            held, conditions, max_depth=op.max_depth, offset=op.offset, limit=op.limit
        )
