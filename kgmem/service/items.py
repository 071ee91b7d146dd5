"""The service's keyed items: framework store entries (a LangGraph ``BaseStore``'s) over memories.

Contract. An item is a caller's ``key`` (unique in its namespace) and a JSON object ``value``.
``put_item`` remembers the item's text (``kgmem.ingest.explicit.remember``: the same gate,
scoring and linking as any explicit memory) on an episode that also carries the key and the
value verbatim, so a read by key returns exactly what was written, while recall finds the item
by what it says. Writing a key again replaces the item: the old one is deleted first and the
first write's ``created_at`` is kept. ``delete_items`` erases (hard forget) each memory that
only the deleted item gave rise to; a memory another turn or item also says stays, and only the
item's episode goes. ``get_items`` (with the memories derived from each), ``item_page`` (most
recently written first) and ``item_namespaces`` read. Keys are checked like a turn id (1-128
letters, digits or ``_.:-@/ ``; an item's key is its episode's turn id, so a recall hit's turn
ids name the items behind it); values must be JSON objects.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from kgmem.core.validation import check_limit, check_namespace
from kgmem.errors import InvalidInput
from kgmem.graph import item_repository
from kgmem.ingest import explicit
from kgmem.ingest.turns.episodes import check_caller_id
from kgmem.records import ItemInput, StoredItem, WriteReceipt
from kgmem.service.curation import CurationOps
from kgmem.taxonomy import ConflictStrategy

# a value is kept verbatim on its episode; bound it like a memory's text, a few times over
MAX_VALUE_CHARS = 65_536


def check_key(key: object) -> str:
    checked = check_caller_id(key, "item key")
    if checked is None:
        raise InvalidInput("item key is missing")
    return checked


def encode_value(value: object) -> str:
    """The JSON text of an item's value: a JSON object of at most ``MAX_VALUE_CHARS``."""
    if not isinstance(value, Mapping):
        raise InvalidInput(f"an item value must be a JSON object, got {type(value).__name__}")
    try:
        text = json.dumps(dict(value), ensure_ascii=False)  # key order kept, as put
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"an item value must be JSON-serialisable: {exc}") from None
    if len(text) > MAX_VALUE_CHARS:
        raise InvalidInput(
            f"an item value is {len(text)} characters of JSON; the limit is {MAX_VALUE_CHARS}"
        )
    return text


class ItemOps(CurationOps):
    """Keyed items: put, get, delete, page and namespaces of framework store entries."""

    async def put_item(
        self,
        key: str,
        value: Mapping[str, Any],
        *,
        text: str,
        namespace: str | None = None,
        category: str = "fact",
        now: datetime | None = None,
    ) -> WriteReceipt:
        """Write (or replace) the item ``key``; ``text`` is what it is remembered as."""
        ns = self._ns(namespace)
        checked_key = check_key(key)
        value_json = encode_value(value)
        explicit.check_explicit(
            text, category=category, source="human", limit=self.settings.max_content_chars
        )
        when = now or datetime.now(UTC)
        previous = await item_repository.find_items(self.graph, namespace=ns, keys=[checked_key])
        created = previous[0].created_at if previous else when
        if previous:
            await self._delete(ns, previous)
        return await explicit.remember(
            self.ingestor,
            text,
            namespace=ns,
            category=category,
            strategy=ConflictStrategy.TEMPORAL,
            now=when,
            item=ItemInput(checked_key, value_json, created),
        )

    async def get_items(
        self, keys: Sequence[str], *, namespace: str | None = None
    ) -> list[StoredItem]:
        ns = self._ns(namespace)
        return await item_repository.find_items(
            self.graph, namespace=ns, keys=[check_key(k) for k in keys]
        )

    async def item_page(self, namespaces: Sequence[str], *, limit: int = 100) -> list[StoredItem]:
        return await item_repository.find_item_page(
            self.graph,
            namespaces=[check_namespace(n) for n in namespaces],
            limit=check_limit(limit, low=1, high=10_000),
        )

    async def item_namespaces(self, prefix: str = "", *, limit: int = 10_000) -> list[str]:
        """Namespaces holding items: ``prefix`` itself and those under it (``prefix.``...)."""
        if prefix:
            check_namespace(prefix)
        return await item_repository.find_item_namespaces(
            self.graph, prefix=prefix, limit=check_limit(limit, low=1, high=100_000)
        )

    async def delete_items(self, keys: Sequence[str], *, namespace: str | None = None) -> int:
        """Delete the items of ``keys`` (a missing key is no error); how many were deleted."""
        ns = self._ns(namespace)
        found = await item_repository.find_items(
            self.graph, namespace=ns, keys=[check_key(k) for k in keys]
        )
        return await self._delete(ns, found)

    async def _delete(self, ns: str, items: Sequence[StoredItem]) -> int:
        if not items:
            return 0
        # A memory only this item said goes with it (an erasure: a deleted store entry must not
        # be recalled); one that another turn or item also says keeps its other provenance.
        for memory in {m for item in items for m in item.memories if m.sole}:
            await self._erase(memory.memory_id, ns, "store")
        await item_repository.delete_item_episodes(
            self.graph, namespace=ns, keys=[i.key for i in items]
        )
        return len(items)
