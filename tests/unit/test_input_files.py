"""The pure input checks behind all-or-nothing imports: ``check_text`` refuses exactly the lone
surrogates and C0 controls (tab, newline and carriage return stay text), ``check_turns`` names the
bad turn's index, and the file readers stream checked records and name ``FILE:LINE``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem.core.validation import check_text
from kgmem.errors import InvalidInput
from kgmem.ingest.explicit import check_explicit
from kgmem.ingest.turns.episodes import check_turns
from kgmem.input_files import jsonl_turns, memory_lines, read_jsonl_turns, read_locomo
from kgmem.records import Turn

ALLOWED_CONTROLS = "\t\n\r"
REFUSED = [chr(c) for c in range(0x20) if chr(c) not in ALLOWED_CONTROLS] + ["\ud800", "\udfff"]


@given(st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=200))
def test_text_without_controls_or_surrogates_passes_stripped(text: str) -> None:
    if text.strip():
        assert check_text(text) == text.strip()


@given(
    st.text(st.characters(categories=("L", "N", "Zs")), min_size=1, max_size=40),
    st.sampled_from(REFUSED),
    st.text(st.characters(categories=("L", "N")), min_size=1, max_size=40),
)
def test_a_control_or_surrogate_inside_text_is_refused_by_position(
    head: str, bad: str, tail: str
) -> None:
    text = head.lstrip() + "x" + bad + tail
    with pytest.raises(InvalidInput, match=f"speaker contains .*U\\+{ord(bad):04X}"):
        check_text(text, what="speaker")


def test_tab_newline_and_carriage_return_inside_text_pass() -> None:
    assert check_text(" a\tb\r\nc ") == "a\tb\r\nc"


def test_check_turns_names_the_first_bad_turn_and_its_field() -> None:
    good = Turn(text="fine")
    with pytest.raises(InvalidInput, match=r"^turns\[2\]: speaker must be a string, got int$"):
        check_turns([good, good, Turn(text="x", speaker=5), Turn(text=" ")])  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match=r"^turns\[0\]: role must be one of"):
        check_turns([Turn(text="x", role=["user"])])  # type: ignore[arg-type]


def test_check_explicit_is_the_remember_check() -> None:
    assert check_explicit("  Tom likes tea. ", category="fact", source="human", limit=50).text == (
        "Tom likes tea."
    )
    for text, category, source in (("x" * 51, "fact", "human"), ("ok", "gossip", "human")):
        with pytest.raises(InvalidInput):
            check_explicit(text, category=category, source=source, limit=50)
    with pytest.raises(InvalidInput, match="source"):
        check_explicit("ok", category="fact", source="rumour", limit=50)


def test_jsonl_turns_stream_so_a_first_pass_reads_no_more_than_it_checks(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text('{"text": " hi ", "at": "2023-05-08T13:56:00Z"}\n\n{"text": 5}\n')
    turns = jsonl_turns(path)
    first = next(turns)  # the bad line 3 has not been read yet
    assert first.text == "hi" and first.at is not None and first.at.year == 2023
    with pytest.raises(InvalidInput, match=rf"^{path}:3: text must be a string, got int$"):
        next(turns)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"{oops", "not JSON"),
        (b"[1, 2]", "JSON object with 'text'"),
        (b'{"text": "a", "at": "yesterday"}', "at is not an ISO-8601 timestamp"),
        (b'{"text": "a", "session_id": 7}', "session_id must be"),
        (b'{"text": "caf\xe9"}', "not UTF-8"),
        (b'{"text": "a\\u001b[31m"}', "control character U+001B"),
    ],
)
def test_each_bad_line_is_named_by_file_and_line(tmp_path: Path, line: bytes, reason: str) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"text": "fine"}\r\n' + line + b"\n")
    with pytest.raises(InvalidInput, match=f"^{re.escape(str(path))}:2: .*{re.escape(reason)}"):
        read_jsonl_turns(path)


def test_memory_lines_skip_blanks_keep_numbers_and_drop_a_bom(tmp_path: Path) -> None:
    path = tmp_path / "facts.txt"
    path.write_bytes("\ufeffTom likes tea.\n\n   \n Ana sings. \nx\x07\n".encode())
    lines = memory_lines(path, category="fact")
    assert [next(lines), next(lines)] == ["Tom likes tea.", "Ana sings."]
    with pytest.raises(InvalidInput, match=f"^{path}:5: text contains the control character"):
        next(lines)
    with pytest.raises(InvalidInput, match="cannot read"):
        list(memory_lines(tmp_path / "missing.txt", category="fact"))


def test_a_locomo_file_names_the_sample_session_and_turn(tmp_path: Path) -> None:
    sample = {
        "sample_id": "c9",
        "conversation": {
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ana", "dia_id": "D1:1", "text": "Hi!", "blip_caption": "a cat"},
                {"speaker": 3, "dia_id": "D1:2", "text": "Hello."},
            ],
        },
    }
    path = tmp_path / "c.json"
    path.write_text(json.dumps(sample))
    with pytest.raises(InvalidInput, match=f"^{path}: c9 session_1 turn D1:2: speaker must be"):
        read_locomo(path)
    sample["conversation"]["session_1"] = sample["conversation"]["session_1"][:1]  # type: ignore[index]
    path.write_text(json.dumps(sample))
    (conversation,) = read_locomo(path)
    assert conversation.turns[0].text == "Hi! [shares a photo: a cat]"
    del sample["conversation"]["session_1_date_time"]  # type: ignore[attr-defined]
    path.write_text(json.dumps(sample))
    with pytest.raises(InvalidInput, match="c9 session_1: unrecognised LoCoMo session date"):
        read_locomo(path)
