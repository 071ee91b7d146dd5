"""The GraphQL documents the SDK client sends, and the variables of a recall.

Contract. ``OBSERVE``, ``REMEMBER``, ``RECALL`` and ``FACTS`` are the documents of the ``Memory``
calls; each root field is a union whose ``Rejected`` member carries ``reason`` and ``code``.
:func:`recall_variables` maps a ``RecallOptions`` record to the ``recall`` field's arguments and
filters, and refuses (``InvalidOption``) an option the API does not take. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kgmem.errors import InvalidOption
from kgmem.recall.options import Activation, RecallOptions

# Recall options only the in-process service runs (the GraphQL field has no argument for them),
# each with the test for a value other than its default.
_LOCAL_ONLY: dict[str, Callable[[RecallOptions], bool]] = {
    "channels": lambda o: bool(o.channels),
    "activation": lambda o: o.activation is not Activation.SPREADING,
}

_RECEIPT = "action memoryId reason relatedIds entities"
_REJECTED_FIELDS = "... on Rejected { reason code }"
_CLAIM = "value polarity memoryId content status confidence validFrom validUntil supersededBy"

OBSERVE = f"""
mutation Observe($turns: [TurnInput!]!, $flush: Boolean!, $strategy: String, $namespace: String,
                $waitSeconds: Float!) {{
  observe(turns: $turns, flush: $flush, strategy: $strategy, namespace: $namespace,
          waitSeconds: $waitSeconds) {{
    __typename
    ... on ObserveOk {{
      episodeIds newEpisodes trigger status extractedEpisodes pendingEpisodes skippedTurns engine
      conflicts deferred memoryIds waited
      receipts {{ {_RECEIPT} }}
      skipped {{ episodeId reasons }}
    }}
    {_REJECTED_FIELDS}
  }}
}}"""

REMEMBER = f"""
mutation Remember($input: RememberInput!) {{
  remember(input: $input) {{
    __typename
    ... on RememberOk {{ receipt {{ {_RECEIPT} }} }}
    {_REJECTED_FIELDS}
  }}
}}"""

RECALL = f"""
query Recall($query: String!, $limit: Int!, $dry: Boolean!, $explain: Boolean!,
             $namespace: String, $profile: String, $mode: String, $filters: RecallFilters,
             $asOf: DateTime, $sessionId: String, $episodeHits: Boolean!,
             $bookmarks: [String!]) {{
  recall(query: $query, limit: $limit, dry: $dry, explain: $explain, namespace: $namespace,
         profile: $profile, mode: $mode, filters: $filters, asOf: $asOf, sessionId: $sessionId,
         episodeHits: $episodeHits, bookmarks: $bookmarks) {{
    __typename
    ... on RecallOk {{
      skipped
      hits {{
        kind memoryId content score category status injection turnIds validFrom validUntil
        channels {{ channel rank rawScore }}
      }}
      xray {{ raw }}
    }}
    {_REJECTED_FIELDS}
  }}
}}"""


def recall_variables(
    query: str,
    namespace: str | None,
    options: RecallOptions,
    *,
    explain: bool = False,
    bookmarks: Sequence[str] = (),
) -> dict[str, object]:
    """The ``recall`` field's variables for a typed options record; a filter left at its
    default is not sent (the server's default is the same)."""
    local = [name for name, off in _LOCAL_ONLY.items() if off(options)]
    if local:
        raise InvalidOption(local[0], f"recall options not available over the API: {local}")
    filters: dict[str, object] = {}
    if options.categories is not None:
        filters["categories"] = sorted(options.categories)
    if options.tiers is not None:
        filters["tiers"] = sorted(options.tiers)
    if options.min_confidence:
        filters["minConfidence"] = options.min_confidence
    if options.include_superseded:
        filters["includeSuperseded"] = True
    return {
        "query": query,
        "limit": options.limit,
        "namespace": namespace,
        "dry": options.dry,
        "explain": explain,
        "episodeHits": options.episode_hits,
        "bookmarks": list(bookmarks) or None,
        "profile": str(options.profile),
        "mode": str(options.mode),
        "asOf": options.as_of.isoformat() if options.as_of else None,
        "sessionId": options.session_id,
        "filters": filters or None,
    }


FACTS = f"""
query Facts($entity: String!, $slot: String, $namespace: String) {{
  facts(entity: $entity, slot: $slot, namespace: $namespace) {{
    __typename
    ... on EntityFactsOk {{
      subject entityId name
      slots {{
        slot multiValued
        current {{ {_CLAIM} }}
        history {{ {_CLAIM} }}
      }}
    }}
    {_REJECTED_FIELDS}
  }}
}}"""
