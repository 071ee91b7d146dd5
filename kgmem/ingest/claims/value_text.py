"""A claim's value as said in the text: where it ends, what it is called, where it stands.

``trim_value`` cuts a value at the first word that ends it ("Austin last week" → "austin") and
normalises it (lower case, articles, "new", possessives dropped). ``value_before`` reads a value
said before its slot ("These days Severance is Maya's favourite show" → "Severance"), and
``antecedent`` what "it" stands for there ("rewatching Severance, it's her comfort show").
``canonical`` folds one value said many ways to one (``VALUE_CANON``: "a glass of wine" is
alcohol, "bikes to work" and "cycles to work" one commute). The word lists here (``BOUNDARY``,
``VALUE_DROP``, ``NOT_NAMES``, ``NAME_RE``) are shared with the subject reading in
:mod:`kgmem.ingest.claims.engine`. Pure.
"""

from __future__ import annotations

import re

from kgmem.core.text import word_set
from kgmem.ingest.claims.lexicon import VALUE_CANON

# words that end a value: "Austin last week", "Stripe as a designer", "green now", "a Fiat Panda
# to work every day"
BOUNDARY = word_set(
    "and but because since so which who whom where when while with for after before as from "
    "last this next now recently yesterday today tomorrow soon ago again anymore instead though "
    "too also in on at by until till during about over than then just already still really "
    "there here because every to around across near that "
    # a span of time after the value: "Mercy General two weeks ago"
    "two three four five six seven eight nine ten several few couple "
    # time said after the value: "Rob these days", "driving lately"
    "these those lately nowadays"
)
VALUE_DROP = word_set("a an the new current own my his her their its our your brand another")
# sentence adverbs that open a clause, never a value: "Sadly Pixel passed away"
_LEAD_ADVERBS = word_set(
    "sadly unfortunately luckily fortunately honestly finally actually basically"
)
NAME_RE = re.compile(r"[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*")
# capitalised words that open a sentence or stand for no one
NOT_NAMES = word_set(
    "i the a an this that these those it he she they we you my our your his her their its "
    "actually also so well oh ok okay yes no now then but and after before when since recently "
    "last next today yesterday monday tuesday wednesday thursday friday saturday sunday "
    "sadly unfortunately luckily fortunately honestly finally basically just still already "
    "lately anyway remind tell ask help let please thanks on in at by for from ever even"
)
_MAX_VALUE_WORDS = 6
_MAX_BEFORE_WORDS = 3
# words that end a value said before its slot: "these days", "lately", "honestly"
_FILLERS = word_set(
    "days lately honestly basically officially definitely though these those still even "
    "is are was were has have had become became someone something everyone nothing"
)


def trim_value(raw: str) -> str:
    """The value words up to the first boundary word, normalised (lower case, no articles)."""
    words = raw.strip().split()
    kept: list[str] = []
    for w in words:
        bare = w.strip("'\"’").lower()
        if kept and (bare in BOUNDARY or re.fullmatch(r"\d{4}-\d{2}-\d{2}", bare)):
            break
        kept.append(bare)
        if len(kept) >= _MAX_VALUE_WORDS:
            break
    while kept and kept[0] in VALUE_DROP | _LEAD_ADVERBS | {"to", "at", "in", "of"}:
        kept.pop(0)
    while kept and (kept[-1] in BOUNDARY or kept[-1] in VALUE_DROP):
        kept.pop()
    kept = [
        w.removesuffix("'s").removesuffix("’s") if i < len(kept) - 1 else w
        for i, w in enumerate(kept)
    ]
    return " ".join(kept).strip(" -'’")


def value_before(clause: str) -> str:
    """The value said before the match: the last words of the clause before it that are not
    stop, time or pronoun words ("These days Severance" -> "Severance", "it" -> "")."""
    kept: list[str] = []
    for word in reversed(clause.split()):
        bare = word.strip("'\"’").lower()
        if bare in BOUNDARY or bare in VALUE_DROP or bare in NOT_NAMES or bare in _FILLERS:
            break
        kept.insert(0, word)
        if len(kept) >= _MAX_BEFORE_WORDS:
            break
    return " ".join(kept)


def antecedent(content: str, clause_start: int, clause: str) -> str:
    """What "it" stands for in "rewatching Severance, it's her comfort show": the last name of
    the clause before, in the same sentence, when the value said is a pronoun."""
    if not re.fullmatch(r"\s*(?:it|that|this)\s*", clause, re.IGNORECASE):
        return ""
    before = content[:clause_start]
    sentence = re.split(r"[.!?]\s", before)[-1]
    found = [m.group(0) for m in NAME_RE.finditer(sentence) if m.start() > 0]
    found = [n for n in found if n.split()[0].lower() not in NOT_NAMES]
    return found[-1] if found else ""


def canonical(key: str, value: str) -> str:
    """One value said many ways folded to one (``VALUE_CANON``, by the value's last word)."""
    canon = VALUE_CANON.get(key) or VALUE_CANON.get(key.partition(":")[0])
    if not canon or not value:
        return value
    return canon.get(value.split()[-1], value)
