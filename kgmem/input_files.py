"""Read conversation and memory files into checked records, line by line: kgmem's JSONL turns,
LoCoMo-style JSON, and plain memory lines.

JSONL: one JSON object per line with ``text`` and optional ``role``, ``speaker``,
``session_id``, ``at`` (ISO-8601) and ``turn_id``; blank lines are skipped. LoCoMo-style JSON: a
list of samples, each with ``sample_id`` and a ``conversation`` holding ``session_<n>`` turn lists
and ``session_<n>_date_time`` strings such as "1:56 pm on 8 May, 2023"; a shared photo's caption
is kept in the text as "[shares a photo: …]" so what was shown is remembered too. Memory lines:
one explicit memory per non-blank line.

Every record is checked by the write path's own check (``check_turn``, ``check_explicit``), so a
file that reads cleanly is one the write path accepts whole; the first bad record raises
``InvalidInput`` as ``FILE:LINE: reason`` (a LoCoMo turn: ``FILE: sample session_n turn id:
reason``). The JSONL and memory-line readers are generators over the open file — nothing but the
current line is held — so a caller checks a large file in a first pass and writes it in a second.
Lines end with ``\\n`` or ``\\r\\n``; a UTF-8 byte-order mark on the first line is dropped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kgmem.core.validation import MAX_CONTENT_CHARS
from kgmem.errors import InvalidInput
from kgmem.ingest.explicit import check_explicit
from kgmem.ingest.turns.episodes import check_turn
from kgmem.records import Turn

_SESSION_RE = re.compile(r"^session_(\d+)$")


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    speakers: tuple[str, ...]
    turns: tuple[Turn, ...]


def parse_locomo_date(text: object) -> datetime:
    """'1:56 pm on 8 May, 2023' → an aware UTC datetime."""
    if isinstance(text, str):
        try:
            return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
        except ValueError:
            pass
    raise InvalidInput(f"unrecognised LoCoMo session date {text!r}")


def read_lines(path: Path) -> Iterator[tuple[int, str]]:
    """A UTF-8 file's lines with their 1-based numbers, without line endings, one at a time."""
    try:
        handle = Path(path).open("rb")  # noqa: SIM115 - closed by the with below; open may fail
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror}") from None
    with handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise InvalidInput(f"{path}:{number}: not UTF-8 text") from None
            if number == 1:
                line = line.removeprefix("\ufeff")
            yield number, line.rstrip("\r\n")


def jsonl_turns(path: Path, *, limit: int = MAX_CONTENT_CHARS) -> Iterator[Turn]:
    """The checked turns of a JSONL file, streamed; the first bad line is ``FILE:LINE: reason``."""
    for number, line in read_lines(path):
        if not line.strip():
            continue
        try:
            turn = check_turn(_jsonl_turn(line), limit=limit)
        except InvalidInput as exc:
            raise InvalidInput(f"{path}:{number}: {exc.message}") from None
        yield turn


def read_jsonl_turns(path: Path, *, limit: int = MAX_CONTENT_CHARS) -> list[Turn]:
    """Every checked turn of a JSONL file (for callers that want them all at once)."""
    return list(jsonl_turns(path, limit=limit))


def memory_lines(
    path: Path, *, category: str, source: str = "human", limit: int = MAX_CONTENT_CHARS
) -> Iterator[str]:
    """Each non-blank line of a file as the clean text ``remember`` would store, streamed; the
    first line ``remember`` would refuse is ``FILE:LINE: reason``."""
    for number, line in read_lines(path):
        if not line.strip():
            continue
        try:
            checked = check_explicit(line, category=category, source=source, limit=limit)
        except InvalidInput as exc:
            raise InvalidInput(f"{path}:{number}: {exc.message}") from None
        yield checked.text


def _jsonl_turn(line: str) -> Turn:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"not JSON ({exc.msg})") from None
    if not isinstance(obj, dict) or "text" not in obj:
        raise InvalidInput("each line needs a JSON object with 'text'")
    # Values go to check_turn as sent: it names whichever field has the wrong type.
    return Turn(
        text=obj["text"],
        role=obj.get("role", "user"),
        speaker=obj.get("speaker"),
        session_id=obj.get("session_id"),
        at=obj.get("at"),
        turn_id=obj.get("turn_id"),
    )


def locomo_conversation(sample: object, *, limit: int = MAX_CONTENT_CHARS) -> Conversation:
    """One LoCoMo sample as a conversation of checked turns; InvalidInput names the bad turn."""
    if not isinstance(sample, dict):
        raise InvalidInput("each sample must be a JSON object")
    conv = sample.get("conversation")
    sample_id = str(sample.get("sample_id", "conversation"))
    if not isinstance(conv, dict):
        raise InvalidInput(f"{sample_id}: no 'conversation' object")
    sessions = sorted(int(m.group(1)) for k in conv if (m := _SESSION_RE.match(k)))
    turns: list[Turn] = []
    for n in sessions:
        try:
            at = parse_locomo_date(conv.get(f"session_{n}_date_time"))
        except InvalidInput as exc:
            raise InvalidInput(f"{sample_id} session_{n}: {exc.message}") from None
        raws = conv[f"session_{n}"]
        if not isinstance(raws, list):
            raise InvalidInput(f"{sample_id} session_{n}: not a list of turns")
        for index, raw in enumerate(raws):
            ident = raw.get("dia_id", index) if isinstance(raw, dict) else index
            try:
                turn = _locomo_turn(raw, f"{sample_id}-session_{n}", at)
                turns.append(check_turn(turn, limit=limit))
            except InvalidInput as exc:
                raise InvalidInput(f"{sample_id} session_{n} turn {ident}: {exc.message}") from None
    speakers = tuple(s for s in (conv.get("speaker_a"), conv.get("speaker_b")) if s)
    return Conversation(sample_id, speakers, tuple(turns))


def _locomo_turn(raw: object, session_id: str, at: datetime) -> Turn:
    if not isinstance(raw, dict):
        raise InvalidInput("a turn must be a JSON object")
    text: Any = raw.get("text")
    if raw.get("blip_caption") and isinstance(text, str):
        text = f"{text} [shares a photo: {raw['blip_caption']}]"
    return Turn(
        text=text,
        role="user",
        speaker=raw.get("speaker"),
        session_id=session_id,
        at=at,
        turn_id=raw.get("dia_id"),
    )


def read_locomo(path: Path, *, limit: int = MAX_CONTENT_CHARS) -> list[Conversation]:
    """Every conversation of a LoCoMo-style file, each turn checked (the file is one JSON value,
    so it is read whole)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise InvalidInput(f"{path} is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    samples = data if isinstance(data, list) else [data]
    try:
        return [locomo_conversation(s, limit=limit) for s in samples]
    except InvalidInput as exc:
        raise InvalidInput(f"{path}: {exc.message}") from None
