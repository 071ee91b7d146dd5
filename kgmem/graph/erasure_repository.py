"""Gateway functions for hard forget: the scope read and the steps of its one write transaction.

Like ``repository``, each function names its catalog query and passes exactly the parameters it
declares, namespace first. ``find_erasure_scope`` is a read; :func:`erasure_steps` builds the
``Step``\\ s the service runs together in one ``write_batch`` (all land or none do), in the order
they must run: every step reads the erased memories' edges, so the memories themselves go last.
:func:`erasure_counts` reads the counts of a forget from the steps' rows.
"""

from __future__ import annotations

from datetime import datetime

from kgmem.errors import NotFound
from kgmem.graph import repository
from kgmem.graph.client import GraphClient, Row, Step

# Where each count of a hard forget comes from: (step index, column) by name.
_COUNTS: dict[str, tuple[int, str]] = {
    "entities_deleted": (0, "deleted"),
    "entities_renamed": (0, "renamed"),
    "relations_deleted": (0, "unrelated"),
    "boxes_changed": (1, "boxes"),
    "topics_deleted": (2, "topics"),
    "episodes": (3, "deleted"),
    "episodes_redacted": (3, "redacted"),
    "changes": (4, "deleted"),
    "changes_rewritten": (4, "rewritten"),
    "restored": (5, "restored"),
    "memories": (6, "memories"),
}


async def find_erasure_scope(graph: GraphClient, *, namespace: str, memory_id: str) -> Row | None:
    rows = await graph.run("find_erasure_scope", namespace=namespace, id=memory_id)
    return rows[0] if rows else None


def erase_memory_entities(*, namespace: str, ids: list[str], renames: list[Row]) -> Step:
    return Step("erase_memory_entities", {"namespace": namespace, "ids": ids, "renames": renames})


def erase_memory_boxes(*, namespace: str, ids: list[str]) -> Step:
    return Step("erase_memory_boxes", {"namespace": namespace, "ids": ids})


def erase_memory_topics(*, namespace: str, ids: list[str]) -> Step:
    return Step("erase_memory_topics", {"namespace": namespace, "ids": ids})


def erase_memory_episodes(*, namespace: str, ids: list[str], now: datetime) -> Step:
    return Step("erase_memory_episodes", {"namespace": namespace, "ids": ids, "now": now})


def erase_memory_audit(*, namespace: str, ids: list[str]) -> Step:
    return Step("erase_memory_audit", {"namespace": namespace, "ids": ids})


def restore_theme_members(*, namespace: str, ids: list[str], actor: str, now: datetime) -> Step:
    return Step(
        "restore_theme_members", {"namespace": namespace, "ids": ids, "actor": actor, "now": now}
    )


def erase_memories(*, namespace: str, ids: list[str], actor: str, now: datetime) -> Step:
    def check(rows: list[Row]) -> None:
        # erased meanwhile by another forget: roll this one back rather than report an erasure
        if not rows or ids[0] not in (rows[0].get("erased") or ()):
            raise NotFound(f"no memory {ids[0]!r} in namespace {namespace!r}")

    return Step(
        "erase_memories",
        {"namespace": namespace, "ids": ids, "actor": actor, "now": now},
        check=check,
    )


def erasure_steps(
    *, namespace: str, ids: list[str], renames: list[Row], actor: str, now: datetime
) -> list[Step]:
    """The write steps of one hard forget of ``ids`` (the named memory first), in the order they
    must run; ``renames``: the entities that stay under other names (id, name, normalized_name,
    first_token, aliases, aliases_norm, embedding)."""
    ns = namespace
    return [
        erase_memory_entities(namespace=ns, ids=ids, renames=renames),
        erase_memory_boxes(namespace=ns, ids=ids),
        erase_memory_topics(namespace=ns, ids=ids),
        erase_memory_episodes(namespace=ns, ids=ids, now=now),
        erase_memory_audit(namespace=ns, ids=ids),
        restore_theme_members(namespace=ns, ids=ids, actor=actor, now=now),
        erase_memories(namespace=ns, ids=ids, actor=actor, now=now),
        repository.bump_namespace(namespace=ns, now=now),
    ]


def erasure_counts(results: list[list[Row]]) -> dict[str, int]:
    """The counts of a hard forget, from its steps' rows."""
    out: dict[str, int] = {}
    for key, (step, column) in _COUNTS.items():
        rows = results[step]
        out[key] = int(rows[0].get(column) or 0) if rows else 0
    return out
