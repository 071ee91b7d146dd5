"""The prose of a turn that pastes code or markup: the words stay, code and markers go."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kgmem.ingest.extractors.prose import prose
from kgmem.ingest.signals.observer import code_share, markdown_lines


def test_code_blocks_and_markup_are_cut_and_the_sentences_stay() -> None:
    text = (
        "I'm using Flask 2.3.1 on Python 3.11. Here's my code:\n```python\nimport flask\n"
        "app = flask.Flask(__name__)\n```\n### Components\n- **User Authentication**\n"
        "1. Login\n<div class='x'>hello</div>"
    )
    assert prose(text) == (
        "I'm using Flask 2.3.1 on Python 3.11. Here's my code:\nComponents.\n"
        "User Authentication.\nLogin."
    )


def test_an_unclosed_fence_runs_to_the_end() -> None:
    assert prose("I tried this:\n```js\nconst a = 1;\n") == "I tried this:"


PLAIN = st.text(st.characters(blacklist_characters="`*_#<>-+|0123456789\n"), max_size=80)


@settings(max_examples=200, deadline=None)
@given(text=PLAIN)
def test_plain_text_is_returned_unchanged(text: str) -> None:
    assert prose(text) == text


@settings(max_examples=200, deadline=None)
@given(words=st.lists(st.sampled_from(["I", "use", "Flask", "v3", "daily", "."]), max_size=12))
def test_prose_has_no_code_and_no_markdown_left(words: list[str]) -> None:
    text = " ".join(words) + "\n```\ncode()\n```\n- **bold** item\n"
    out = prose(text)
    assert code_share(out) == 0.0 and markdown_lines(out) == 0
    assert " ".join(words).strip() in out or not " ".join(words).strip()
