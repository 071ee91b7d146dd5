"""Turn free user text into a safe Lucene query for the fulltext index.

User text is never passed to Lucene as query syntax: every term is escaped, so operators, field
names, wildcards and unbalanced quotes in the input are searched as words (no syntax errors, no
query injection). Terms are OR-ed, which is what BM25 ranking over a natural-language question
wants. ``weak`` words (a namespace's hub names, see ``hub_words``) are kept at ``boost`` (a
Lucene term boost; 0 drops them), since the fulltext indexes are shared by every namespace and
score a name by its rarity across all of them, not within the namespace searched. Returns None
when nothing searchable is left.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

_TERM_RE = re.compile(r"[\w'’-]+", re.UNICODE)
_SPECIAL_RE = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')
_POSSESSIVE_RE = re.compile(r"['’]s$")
_MAX_TERMS = 64
# Lucene keywords become operators even escaped-free; lowercase them so they are plain words.
_KEYWORDS = {"AND", "OR", "NOT", "TO"}


def escape_term(term: str) -> str:
    if term in _KEYWORDS:
        term = term.lower()
    return _SPECIAL_RE.sub(r"\\\1", term)


def _word(term: str) -> str:
    """The form a term is compared to weak words in: lower case, without a possessive 's."""
    return _POSSESSIVE_RE.sub("", term.lower())


def hub_words(names: Iterable[str]) -> frozenset[str]:
    """The words of entity names (and aliases), in the form ``to_lucene`` compares terms in."""
    return frozenset(_word(t.strip("'’-")) for n in names for t in _TERM_RE.findall(n)) - {""}


def to_lucene(text: str, weak: Collection[str] = (), boost: float = 1.0) -> str | None:
    terms = [t.strip("'’-") for t in _TERM_RE.findall(text)]
    terms = [t for t in terms if t][:_MAX_TERMS]
    out = []
    for t in terms:
        if _word(t) not in weak or boost == 1.0:
            out.append(escape_term(t))
        elif boost > 0.0:
            out.append(f"{escape_term(t)}^{boost:g}")
    if not out:
        return None
    return " OR ".join(out)
