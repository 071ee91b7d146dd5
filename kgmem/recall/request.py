"""A recall request: the query and namespace, checked, beside the caller's typed options.

``build_request`` checks the query and the namespace and joins them to a ``RecallOptions`` (the
options were validated when that record was parsed, see ``recall.options``) into a
``RecallRequest``, the one record the engine reads; it raises ``InvalidInput`` for a bad query or
namespace before any I/O. ``CHANNELS`` are the searches a request may name, ``ACTIVATIONS`` the
ways activation may spread.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from kgmem.core.validation import check_namespace, check_text
from kgmem.recall.options import Activation, Channel, RecallOptions

MAX_QUERY_CHARS = 2048
CHANNELS = tuple(Channel)
ACTIVATIONS = tuple(Activation)


@dataclass(frozen=True, kw_only=True)
class RecallRequest(RecallOptions):
    query: str
    namespace: str


def build_request(
    query: object, namespace: object, options: RecallOptions | None = None
) -> RecallRequest:
    """Check the query and namespace (typed errors for bad input) and join them to ``options``."""
    text = check_text(query, what="query", limit=MAX_QUERY_CHARS)
    ns = check_namespace(namespace)
    opts = options or RecallOptions()
    # a shallow copy of the fields: dataclasses.asdict would deep-copy the frozensets
    chosen = {f.name: getattr(opts, f.name) for f in fields(RecallOptions)}
    return RecallRequest(query=text, namespace=ns, **chosen)
