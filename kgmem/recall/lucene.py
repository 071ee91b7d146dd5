"""Turn free user text into a safe Lucene query for the fulltext index.

User text is never passed to Lucene as query syntax: every term is escaped, so operators, field
names, wildcards and unbalanced quotes in the input are searched as words (no syntax errors, no
query injection). Terms are OR-ed, which is what BM25 ranking over a natural-language question
wants. Returns None when nothing searchable is left.
"""

from __future__ import annotations

import re

_TERM_RE = re.compile(r"[\w'’-]+", re.UNICODE)
_SPECIAL_RE = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')
_MAX_TERMS = 64
# Lucene keywords become operators even escaped-free; lowercase them so they are plain words.
_KEYWORDS = {"AND", "OR", "NOT", "TO"}


def escape_term(term: str) -> str:
    if term in _KEYWORDS:
        term = term.lower()
    return _SPECIAL_RE.sub(r"\\\1", term)


def to_lucene(text: str) -> str | None:
    terms = [t.strip("'’-") for t in _TERM_RE.findall(text)]
    terms = [t for t in terms if t][:_MAX_TERMS]
    if not terms:
        return None
    return " OR ".join(escape_term(t) for t in terms)
