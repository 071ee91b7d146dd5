"""The service's read path: recall memories for a query, and the X-ray of a recall.

Contract. ``recall`` builds a request from the query and options (see
:func:`kgmem.recall.request.build_request`) and runs the recall engine; ``explain`` returns the
X-ray of a recall and is dry unless told otherwise, so explaining does not count as an access.
Both take ``bookmarks``, a consistency token a write returned (``Kgmem.writes_bookmarks``): the
recall's reads then see at least those writes, on whichever cluster member serves them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kgmem.graph import consistency
from kgmem.recall.engine import recall
from kgmem.recall.request import build_request
from kgmem.recall.results import RecallResult
from kgmem.recall.xray import Xray
from kgmem.service.core import ServiceCore


class RecallOps(ServiceCore):
    """Reading memories: recall and explain."""

    async def recall(
        self,
        query: str,
        *,
        namespace: str | None = None,
        limit: int = 10,
        bookmarks: Sequence[str] = (),
        **options: Any,
    ) -> RecallResult:
        """Recall memories for a query; options: profile, mode, categories, tiers,
        min_confidence, as_of, include_superseded, dry, channels, session_id, episode_hits
        (a matching turn no memory stands for may fill in as an episode hit; on by default).
        ``bookmarks``: a consistency token; the recall sees at least the writes it names."""
        request = build_request(query, self._ns(namespace), limit=limit, **options)
        with consistency.reading_after(bookmarks):
            return await recall(self.graph, self.embedder, self.nlp, request)

    async def explain(
        self, query: str, *, namespace: str | None = None, limit: int = 10, **options: Any
    ) -> Xray:
        """The X-ray of a recall. Dry unless ``dry=False`` is passed: explaining a recall should
        not count as an access to the memories it shows."""
        options.setdefault("dry", True)
        result = await self.recall(query, namespace=namespace, limit=limit, **options)
        return result.xray
