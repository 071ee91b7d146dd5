"""LoCoMo loading for the retrieval benchmarks.

Contract: ``load_locomo(path)`` reads the LoCoMo JSON (a list of samples) into frozen ``Sample``
records: every turn with its ``dia_id``, speaker, text, session number and the session's date
parsed into an aware UTC datetime (``parse_session_date``; the data carries no zone, so it is read
as UTC). A turn that shares a photo gets ``" [shares a photo: <blip_caption>]"`` appended to its
text (``captions=False`` leaves it out): the caption is the only place some answers live (e.g. what
a painting shows), and it is what a chat client would show as the image's alt text. Questions keep
``question``, ``answer`` (``adversarial_answer`` for category 5), ``category`` and their evidence
repaired by ``repair_evidence`` ('D8:6; D9:17' → two ids, 'D:11:26' → 'D11:26', 'D30:05' →
'D30:5'; pieces that name no turn of the conversation are dropped). ``observation``,
``session_summary`` and ``event_summary`` are never read: they leak answers. Pure apart from
reading the file.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from benchmarks.common.paths import LOCOMO

DEFAULT_DATA = LOCOMO


_DATE_FORMAT = "%I:%M %p on %d %B, %Y"
_EVIDENCE = re.compile(r"^D:?(\d+):(\d+)$")
_SESSION_KEY = re.compile(r"^session_(\d+)$")


@dataclass(frozen=True)
class LocomoTurn:
    """One conversation turn; ``text`` already carries the photo caption when there is one."""

    dia_id: str
    speaker: str
    text: str
    session: int
    date_text: str  # as written in the data, e.g. "1:56 pm on 8 May, 2023"
    at: datetime  # the session's date, aware UTC

    @property
    def document(self) -> str:
        """The baseline document of this turn: ``"[<session date>] <speaker>: <text>"``."""
        return f"[{self.date_text}] {self.speaker}: {self.text}"


@dataclass(frozen=True)
class Question:
    question: str
    answer: str
    category: int
    evidence: tuple[str, ...]  # repaired dia_ids, each naming a turn of the conversation
    raw_evidence: tuple[str, ...] = ()


@dataclass(frozen=True)
class Sample:
    sample_id: str
    speaker_a: str
    speaker_b: str
    turns: tuple[LocomoTurn, ...]
    questions: tuple[Question, ...]

    @property
    def sessions(self) -> list[tuple[int, list[LocomoTurn]]]:
        """The turns grouped by session number, sessions in order, turns in dialogue order."""
        groups: dict[int, list[LocomoTurn]] = {}
        for t in self.turns:
            groups.setdefault(t.session, []).append(t)
        return sorted(groups.items())


def parse_session_date(text: str) -> datetime:
    """``"1:56 pm on 8 May, 2023"`` → 2023-05-08 13:56 UTC (the data carries no zone)."""
    cleaned = " ".join(text.strip().strip("'\"").split())
    try:
        return datetime.strptime(cleaned, _DATE_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        raise ValueError(f"not a LoCoMo session date: {text!r}") from None


def repair_evidence(raw: Iterable[str], valid: Collection[str]) -> tuple[str, ...]:
    """Split, repair and filter evidence ids; order kept, duplicates and unknown ids dropped."""
    out: list[str] = []
    for item in raw:
        for piece in re.split(r"[;,\s]+", str(item)):
            m = _EVIDENCE.match(piece.strip())
            if m is None:
                continue
            dia_id = f"D{int(m.group(1))}:{int(m.group(2))}"
            if dia_id in valid and dia_id not in out:
                out.append(dia_id)
    return tuple(out)


def _with_caption(text: str, caption: object) -> str:
    if isinstance(caption, str) and caption.strip():
        return f"{text} [shares a photo: {caption.strip()}]"
    return text


def parse_sample(raw: Mapping[str, Any], *, captions: bool = True) -> Sample:
    conv = raw["conversation"]
    turns: list[LocomoTurn] = []
    numbers = sorted(int(m.group(1)) for k in conv if (m := _SESSION_KEY.match(k)))
    for n in numbers:
        date_text = " ".join(str(conv[f"session_{n}_date_time"]).split())
        at = parse_session_date(date_text)
        for t in conv[f"session_{n}"]:
            text = str(t.get("text") or "")
            if captions:
                text = _with_caption(text, t.get("blip_caption"))
            if not text.strip():
                continue
            turns.append(LocomoTurn(str(t["dia_id"]), str(t["speaker"]), text, n, date_text, at))
    ids = {t.dia_id for t in turns}
    questions = []
    for q in raw.get("qa", []):
        answer = q.get("answer", q.get("adversarial_answer", ""))
        raw_ev = tuple(str(e) for e in q.get("evidence", []))
        questions.append(
            Question(
                question=str(q["question"]),
                answer=str(answer),
                category=int(q["category"]),
                evidence=repair_evidence(raw_ev, ids),
                raw_evidence=raw_ev,
            )
        )
    return Sample(
        sample_id=str(raw["sample_id"]),
        speaker_a=str(conv["speaker_a"]),
        speaker_b=str(conv["speaker_b"]),
        turns=tuple(turns),
        questions=tuple(questions),
    )


def load_locomo(
    path: str | os.PathLike[str] = DEFAULT_DATA,
    *,
    captions: bool = True,
    conversations: Collection[str] | None = None,
) -> list[Sample]:
    """The samples of a LoCoMo JSON file, optionally only the named ``sample_id``s."""
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    samples = [parse_sample(raw, captions=captions) for raw in data]
    if conversations:
        wanted = set(conversations)
        unknown = wanted - {s.sample_id for s in samples}
        if unknown:
            raise ValueError(f"no such conversation(s) in {path}: {sorted(unknown)}")
        samples = [s for s in samples if s.sample_id in wanted]
    return samples
