"""The GraphQL documents the SDK client sends, and the variables of a recall.

Contract. ``OBSERVE``, ``REMEMBER``, ``RECALL`` and ``FACTS`` are the documents of the ``Memory``
calls; each root field is a union whose ``Rejected`` member carries ``reason`` and ``code``.
:func:`recall_variables` maps ``Kgmem.recall``'s keyword options to the ``recall`` field's
arguments and filters, and refuses (``InvalidInput``) an option the API does not take. Pure.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kgmem.errors import InvalidInput

# Recall options the GraphQL ``recall`` field accepts, and the argument each maps to.
_RECALL_ARGS = {"profile": "profile", "mode": "mode", "as_of": "asOf", "session_id": "sessionId"}
_RECALL_FILTERS = {
    "categories": "categories",
    "tiers": "tiers",
    "min_confidence": "minConfidence",
    "include_superseded": "includeSuperseded",
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
    query: str, namespace: str | None, limit: int, options: dict[str, Any]
) -> dict[str, Any]:
    opts = dict(options)
    variables: dict[str, Any] = {
        "query": query,
        "limit": limit,
        "namespace": namespace,
        "dry": bool(opts.pop("dry", False)),
        "explain": bool(opts.pop("explain", False)),
        "episodeHits": bool(opts.pop("episode_hits", True)),
        "bookmarks": list(opts.pop("bookmarks", None) or ()) or None,
    }
    for name, arg in _RECALL_ARGS.items():
        value = opts.pop(name, None)
        variables[arg] = value.isoformat() if isinstance(value, datetime) else value
    filters = {arg: opts.pop(name) for name, arg in _RECALL_FILTERS.items() if name in opts}
    if "categories" in filters or "tiers" in filters:
        for key in ("categories", "tiers"):
            if filters.get(key) is not None:
                filters[key] = list(filters[key])
    variables["filters"] = filters or None
    if opts:
        raise InvalidInput(f"recall options not available over the API: {sorted(opts)}")
    return variables


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
