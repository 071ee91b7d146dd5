"""Read conversation files into ``Turn`` records: kgmem's JSONL and LoCoMo-style JSON.

JSONL: one JSON object per line with ``text`` and optional ``role``, ``speaker``,
``session_id``, ``at`` (ISO-8601) and ``turn_id``. LoCoMo-style JSON: a list of samples, each
with ``sample_id`` and a ``conversation`` holding ``session_<n>`` turn lists and
``session_<n>_date_time`` strings such as "1:56 pm on 8 May, 2023"; a shared photo's caption is
kept in the text as "[shares a photo: …]" so what was shown is remembered too. Bad lines raise
``InvalidInput`` naming the line; nothing is partially returned.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kgmem.errors import InvalidInput
from kgmem.ingest.episodes import as_utc
from kgmem.records import Turn

_SESSION_RE = re.compile(r"^session_(\d+)$")


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    speakers: tuple[str, ...]
    turns: tuple[Turn, ...]


def parse_locomo_date(text: str) -> datetime:
    """'1:56 pm on 8 May, 2023' → an aware UTC datetime."""
    try:
        return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
    except ValueError:
        raise InvalidInput(f"unrecognised LoCoMo session date {text!r}") from None


def read_jsonl_turns(path: Path) -> list[Turn]:
    turns: list[Turn] = []
    for number, line in enumerate(_read(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"{path}:{number}: not JSON ({exc.msg})") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("text"), str):
            raise InvalidInput(f"{path}:{number}: each line needs a JSON object with 'text'")
        try:
            at = as_utc(obj["at"]) if obj.get("at") is not None else None
        except InvalidInput as exc:
            raise InvalidInput(f"{path}:{number}: {exc.message}") from None
        turns.append(
            Turn(
                text=obj["text"],
                role=obj.get("role", "user"),
                speaker=obj.get("speaker"),
                session_id=obj.get("session_id"),
                at=at,
                turn_id=obj.get("turn_id"),
            )
        )
    return turns


def locomo_conversation(sample: dict[str, Any]) -> Conversation:
    conv = sample.get("conversation")
    sample_id = str(sample.get("sample_id", "conversation"))
    if not isinstance(conv, dict):
        raise InvalidInput(f"{sample_id}: no 'conversation' object")
    sessions = sorted(int(m.group(1)) for k in conv if (m := _SESSION_RE.match(k)))
    turns: list[Turn] = []
    for n in sessions:
        at = parse_locomo_date(conv[f"session_{n}_date_time"])
        for raw in conv[f"session_{n}"]:
            text = raw["text"]
            if raw.get("blip_caption"):
                text = f"{text} [shares a photo: {raw['blip_caption']}]"
            turns.append(
                Turn(
                    text=text,
                    role="user",
                    speaker=raw["speaker"],
                    session_id=f"{sample_id}-session_{n}",
                    at=at,
                    turn_id=raw["dia_id"],
                )
            )
    speakers = tuple(s for s in (conv.get("speaker_a"), conv.get("speaker_b")) if s)
    return Conversation(sample_id, speakers, tuple(turns))


def read_locomo(path: Path) -> list[Conversation]:
    try:
        data = json.loads(_read(path))
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    samples = data if isinstance(data, list) else [data]
    return [locomo_conversation(s) for s in samples]


def _read(path: Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise InvalidInput(f"{path} is not UTF-8 text") from None
