"""The namespaces one read covers.

Contract: :func:`recall_namespaces` is the namespace asked for plus ``default``
(cross-project knowledge is read by every namespace); pure. Recall reads through it and so does
the session-resume context, which must see what a recall would.
"""

from __future__ import annotations

DEFAULT_NAMESPACE = "default"


def recall_namespaces(namespace: str) -> tuple[str, ...]:
    """A namespaced recall also reads ``default`` (cross-project knowledge)."""
    return (namespace,) if namespace == DEFAULT_NAMESPACE else (namespace, DEFAULT_NAMESPACE)
