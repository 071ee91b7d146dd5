"""The service's read path: recall memories for a query, and the X-ray of a recall.

Contract. ``recall`` takes its options as a typed ``RecallOptions`` record (interfaces parse their
input into one at the edge) or, for Python callers, as keyword options that are parsed into one
here (``RecallOptions.parse``: ``InvalidOption`` for a bad value, before any I/O); giving both is
an error. It then checks the query and namespace (:func:`kgmem.recall.request.build_request`) and
runs the recall engine. ``explain`` returns the X-ray of a recall and, with keyword options, is
dry unless told otherwise, so explaining does not count as an access; a record is taken as given.
Both take ``bookmarks``, a consistency token a write returned (``Kgmem.writes_bookmarks``): the
recall's reads then see at least those writes, on whichever cluster member serves them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Unpack

from kgmem.graph import consistency
from kgmem.recall.engine import recall
from kgmem.recall.options import RecallChoices, RecallOptions, options_of
from kgmem.recall.request import build_request
from kgmem.recall.results import RecallResult
from kgmem.recall.xray import Xray
from kgmem.service.core import ServiceCore


class RecallOps(ServiceCore):
    """Reading memories: recall and explain."""

    async def recall(
        self,
        query: str,
        options: RecallOptions | None = None,
        *,
        namespace: str | None = None,
        bookmarks: Sequence[str] = (),
        **choices: Unpack[RecallChoices],
    ) -> RecallResult:
        """Recall memories for a query; options (a record, or keywords): limit, profile, mode,
        categories, tiers, min_confidence, as_of, include_superseded, dry, channels, session_id,
        activation, episode_hits (a matching turn no memory stands for may fill in as an episode
        hit; on by default). ``bookmarks``: a consistency token; the recall sees at least the
        writes it names."""
        request = build_request(query, self._ns(namespace), options_of(options, choices))
        with consistency.reading_after(bookmarks):
            return await recall(self.graph, self.embedder, self.nlp, request)

    async def explain(
        self,
        query: str,
        options: RecallOptions | None = None,
        *,
        namespace: str | None = None,
        bookmarks: Sequence[str] = (),
        **choices: Unpack[RecallChoices],
    ) -> Xray:
        """The X-ray of a recall. With keyword options it is dry unless ``dry=False`` is passed:
        explaining a recall should not count as an access to the memories it shows."""
        if options is None:
            choices.setdefault("dry", True)
        chosen = options_of(options, choices)
        result = await self.recall(query, chosen, namespace=namespace, bookmarks=bookmarks)
        return result.xray
