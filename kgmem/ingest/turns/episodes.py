"""Validate observed turns and turn them into ``:Episode`` property maps (durable intake).

Pure. ``check_turn`` refuses a bad turn with ``InvalidInput`` naming the field, before anything
is written; it is the one turn check of every surface (``observe`` in process and over GraphQL,
and the first pass over a file that ``kgmem observe`` makes before it writes any of it).
``check_turns`` checks a whole batch and names the first bad turn's index.
``episode_id`` is derived from the namespace and the turn's identity as the caller sent it
(session, caller turn id, role, speaker, the caller's timestamp and text), so observing the same
turn twice names the same episode and the intake MERGE makes it a no-op: observation is
idempotent. The server's clock never enters the id — a client that retries a turn without ``at``
after a timeout must not store it twice — so a turn without ``at`` or ``turn_id`` is identified by
its session, speaker and text (give ``turn_id`` to store a repeated identical turn again).
``episode_properties`` keeps the caller's own timestamp — an old conversation keeps its dates —
and stamps the intake time only when the caller gave none.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from kgmem.core.time import as_utc
from kgmem.core.validation import check_text
from kgmem.errors import InvalidInput
from kgmem.records import Turn

ROLES = frozenset({"user", "assistant", "system", "tool"})
_ID_RE = re.compile(r"^[\w.:\-@/ ]{1,128}$")
MAX_SPEAKER_CHARS = 200


def check_caller_id(value: object, what: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not _ID_RE.match(value):
        raise InvalidInput(f"{what} must be 1-128 letters, digits or '_.:-@/ ', got {value!r}")
    return value


def check_turn(turn: object, *, limit: int = 8192) -> Turn:
    """A clean copy of a caller's turn, or InvalidInput naming what is wrong (``at`` stays None
    when the caller gave none: it is the caller's clock, not ours)."""
    if not isinstance(turn, Turn):
        raise InvalidInput(f"a turn must be a Turn record, got {type(turn).__name__}")
    role = turn.role
    if not isinstance(role, str) or role not in ROLES:  # a list would not even hash
        raise InvalidInput(f"role must be one of {sorted(ROLES)}, got {role!r}")
    speaker = turn.speaker
    if speaker is not None:
        speaker = check_text(speaker, what="speaker", limit=MAX_SPEAKER_CHARS)
    return Turn(
        text=check_text(turn.text, what="text", limit=limit),
        role=role,
        speaker=speaker,
        session_id=check_caller_id(turn.session_id, "session_id"),
        at=as_utc(turn.at) if turn.at is not None else None,
        turn_id=check_caller_id(turn.turn_id, "turn_id"),
    )


def check_turns(turns: Sequence[object], *, limit: int = 8192) -> list[Turn]:
    """Every turn checked before any is written; the first bad one is named by its index, as
    ``turns[3]: speaker must be a string, got int``."""
    clean: list[Turn] = []
    for index, turn in enumerate(turns):
        try:
            clean.append(check_turn(turn, limit=limit))
        except InvalidInput as exc:
            raise InvalidInput(f"turns[{index}]: {exc.message}") from None
    return clean


def episode_id(namespace: str, turn: Turn) -> str:
    at = turn.at.isoformat() if turn.at else ""
    parts = [
        namespace,
        turn.session_id or "",
        turn.turn_id or "",
        turn.role,
        turn.speaker or "",
        at,
        turn.text,
    ]
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:32]


def episode_properties(namespace: str, turn: Turn, seq: int, *, now: datetime) -> dict[str, Any]:
    """The ``:Episode`` properties of a checked turn; ``now`` dates a turn sent without ``at``."""
    return {
        "id": episode_id(namespace, turn),
        "session_id": turn.session_id,
        "role": turn.role,
        "speaker": turn.speaker,
        "text": turn.text,
        "at": turn.at or now,
        "turn_id": turn.turn_id,
        "seq": seq,
    }


def turn_of(episode: dict[str, Any]) -> Turn:
    """The Turn an episode row (from the graph) stands for; turn_id falls back to the episode id."""
    at = episode.get("at")
    return Turn(
        text=episode["text"],
        role=episode.get("role") or "user",
        speaker=episode.get("speaker"),
        session_id=episode.get("session_id"),
        at=as_utc(at) if at else None,
        turn_id=episode["id"],
    )
