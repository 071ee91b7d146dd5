"""The prose of a turn: what the extractor reads of a turn that pastes code or markup.

A person asking for help with code says their facts around it: "I'm using Flask 2.3.1 on Python
3.11 and I've completed the login module. Here's my code: ```python ...```". The observer filters
mark such a turn code-heavy, XML-heavy or markdown-heavy, and kgmem skips it; its sentences
are then lost. ``prose(text)`` keeps the words: fenced code blocks (an unclosed fence runs to the
end) and top-level XML/HTML elements are cut out, and markdown structure (bullets, numbering,
headings, quote marks, bold and underline markers, inline code ticks) is reduced to its text, one
line a sentence. ``STRUCTURAL`` names the filter reasons that the prose answers: a turn skipped
only for those is extracted from its prose when the prose passes the filters itself. The episode
keeps the exact words. Pure: regular expressions only, no I/O.
"""

from __future__ import annotations

import re

STRUCTURAL = frozenset({"code_heavy", "xml_block", "markdown_heavy"})

_FENCED_RE = re.compile(r"^[ \t]{0,3}(```|~~~)[^\n]*\n.*?(?:^[ \t]{0,3}\1[^\n]*$|\Z)", re.M | re.S)
_ELEMENT_RE = re.compile(r"<([A-Za-z][\w:.-]{0,63})(?:\s[^<>]{0,500})?>.*?</\1\s*>", re.S)
_TAG_RE = re.compile(r"</?[A-Za-z][\w:.-]{0,63}(?:\s[^<>]{0,500})?/?>")
_MARK_RE = re.compile(r"^[ \t]*(?:[-*+][ \t]+|\d{1,3}[.)][ \t]+|#{1,6}[ \t]+|>[ \t]?)", re.M)
_EMPHASIS_RE = re.compile(r"\*\*|__|`")


def prose(text: str) -> str:
    """``text`` without code blocks, XML elements and markdown markers; each non-empty line of
    what is left ends a sentence (a heading or a list item has no full stop of its own). Text
    with none of these is returned unchanged."""
    if not any(r.search(text) for r in (_FENCED_RE, _TAG_RE, _MARK_RE, _EMPHASIS_RE)):
        return text  # plain text stays exactly as it was said
    text = _FENCED_RE.sub("\n", text)
    text = _ELEMENT_RE.sub(" ", text)
    text = _TAG_RE.sub(" ", text)
    text = _MARK_RE.sub("", text)
    text = _EMPHASIS_RE.sub("", text)
    lines = [" ".join(line.split()) for line in text.splitlines()]
    return "\n".join(
        line if line[-1] in ".!?:;,)" else line + "." for line in lines if line.strip()
    )
