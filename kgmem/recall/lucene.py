"""Turn free user text into a safe Lucene query for the fulltext index.

User text is never passed to Lucene as query syntax: every term is escaped, so operators, field
names, wildcards and unbalanced quotes in the input are searched as words (no syntax errors, no
query injection). Terms are OR-ed, which is what BM25 ranking over a natural-language question
wants. ``weak`` words (a namespace's hub names, see ``hub_words``) are kept at ``boost`` (a
Lucene term boost; 0 drops them), since the fulltext indexes are shared by every namespace and
score a name by its rarity across all of them, not within the namespace searched. ``drop`` words
are left out: the recall text searches pass :data:`QUESTION_WORDS`, the words that shape a question
but name nothing a memory says. Returns None when nothing searchable is left.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from kgmem.core.text import escape_term, word_set

_TERM_RE = re.compile(r"[\w'’-]+", re.UNICODE)
_POSSESSIVE_RE = re.compile(r"['’]s$")
_MAX_TERMS = 64
# The 'english' analyzer drops only Lucene's 33 stop words ("a", "is", "the", ...), so "what",
# "did", "does", "when", "kind" stay and score as words: frequent ones, but in a question of five
# content words they still pull memories that merely say "what did you ...". Interrogatives,
# auxiliary and modal verbs, and "kind/type/sort (of)". Chosen by their role, before measuring;
# spaCy's 326-word stop list (it also drops "first", "last", "often", "name") measured worse.
# LoCoMo replay (precise): R@10 +0.021 on conv-26/41/43, +0.010 held out on conv-30/42.
QUESTION_WORDS: frozenset[str] = word_set(
    """what when where which who whom whose why how did does do done has have had been were being
    can could would should will shall might may kind type sort"""
)


def _word(term: str) -> str:
    """The form a term is compared to weak words in: lower case, without a possessive 's."""
    return _POSSESSIVE_RE.sub("", term.lower())


def hub_words(names: Iterable[str]) -> frozenset[str]:
    """The words of entity names (and aliases), in the form ``to_lucene`` compares terms in."""
    return frozenset(_word(t.strip("'’-")) for n in names for t in _TERM_RE.findall(n)) - {""}


def to_lucene(
    text: str, weak: Collection[str] = (), boost: float = 1.0, drop: Collection[str] = ()
) -> str | None:
    terms = [t.strip("'’-") for t in _TERM_RE.findall(text)]
    terms = [t for t in terms if t and _word(t) not in drop][:_MAX_TERMS]
    out = []
    for t in terms:
        if _word(t) not in weak or boost == 1.0:
            out.append(escape_term(t))
        elif boost > 0.0:
            out.append(f"{escape_term(t)}^{boost:g}")
    if not out:
        return None
    return " OR ".join(out)
