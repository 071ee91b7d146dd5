"""Contradiction detection for the write gate: does a new statement contradict a stored one?

``detect_contradiction(new, old)`` returns a ``ContradictionCheck`` (the kind and the old → new
evidence) or ``None``. Checks run most specific first: a **negation** flip ("likes" vs "doesn't
like", "loves" vs "hates", "stopped ..."), a changed **date**, a changed **number**, a **value
change** (same subject and single-valued predicate — "X's favourite colour is", "lives in",
"works at", "prefers", "is named", "was born" — with a different value), and a **correction**
(a cue such as "actually" / "no longer", or ``new_is_correction``, with something replaced).
Each kind except value change also needs the rest of the two texts to be about the same thing
(stem overlap ≥ ``SAME_TOPIC_JACCARD``); a value change needs identical subjects. Facts the
caller found alike in meaning (``alike``) need no word overlap for a changed amount of one measure
(``figures.amounts``: money, thousands, a clock time, a count of one thing). Refinements
("lives in Paris" → "lives in Paris, France") and additions ("also", "too") are not
contradictions, nor is a change that names what it leaves ("switched from Word to Scrivener",
``leaves_another``) beside a statement that mentions none of it. Pure regex and token logic, no
model; the caller (the gate) has already picked neighbours that are close (the cosine ≥ 0.6
window) and share an entity.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from kgmem.core.synthesis import STOPWORDS, is_specific, stem, tokens, words
from kgmem.core.text import content_words
from kgmem.ingest.claims.sameness import overlaps
from kgmem.ingest.gate.figures import (
    DATE_RE,
    FRAMING,
    NUMBER_RE,
    NUMBER_WORDS,
    dates,
    measure_changed,
    numbers,
)

# The rest of two texts counts as "about the same thing" at this stem Jaccard (the
# DEDUP_JACCARD_PREFILTER, 0.50, is the same test used as a dedup pre-filter).
SAME_TOPIC_JACCARD = 0.5


class ContradictionKind(StrEnum):
    VALUE_CHANGE = "value_change"
    NEGATION = "negation"
    NUMBER_CHANGE = "number_change"
    DATE_CHANGE = "date_change"
    CORRECTION = "correction"
    TRANSITION = "transition"  # a claim's value ends: quit, sold, left, broke up, passed away


@dataclass(frozen=True)
class ContradictionCheck:
    """Why two statements conflict: the kind, the old and new sides, and the cue if any."""

    kind: ContradictionKind
    evidence: tuple[str, str]  # (old side, new side), e.g. ("blue", "green")
    cue: str = ""  # the negation or correction word that signalled it

    def describe(self) -> str:
        old, new = self.evidence
        cue = f" (cue {self.cue!r})" if self.cue and self.cue not in self.evidence else ""
        return f"{self.kind.value}: {old or '-'} → {new or '-'}{cue}"


_NEGATORS = frozenset(
    words(
        "not no never nobody nothing none neither nor cannot dont doesnt didnt isnt wasnt arent "
        "werent cant wont havent hasnt hadnt shouldnt wouldnt couldnt"
    )
)
_STOP_VERBS = frozenset({"stop", "quit"})  # "stopped playing guitar" negates "plays guitar"


def _inflections(base: str) -> set[str]:
    root = base[:-1] if base.endswith("e") else base
    return {base, base + "s", root + "ed", root + "ing"}


# Antonyms that carry a negation: "dislikes jazz" is "not likes jazz".
_ANTONYMS: dict[str, str] = {
    form: stem(positive)
    for negative, positive in (
        ("dislike", "like"),
        ("hate", "love"),
        ("detest", "love"),
        ("loathe", "love"),
        ("disagree", "agree"),
        ("distrust", "trust"),
    )
    for form in _inflections(negative)
} | {"unhappy": stem("happy"), "unable": stem("able"), "unmarried": stem("married")}

# Single-valued predicates: a second value replaces the first. Longer forms come first so "is
# called" wins over "is" at the same position; the group name is the canonical predicate.
_PREDICATE_RE = re.compile(
    r"\b(?:(?P<live_in>(?:lives?|lived|living|resides?|resided) in|(?:moved|relocated) to)"
    r"|(?P<work_at>(?:is |was )?(?:works?|worked|working|employed) (?:at|for|by))"
    r"|(?P<work_as>(?:works?|worked|working) as)"
    r"|(?P<named>(?:is |was )?(?:called|named))"
    r"|(?P<born>(?:was )?born (?:in|on))"
    r"|(?P<married>(?:is |was )?married to)"
    r"|(?P<prefer>prefers?|preferred)"
    r"|(?P<be>is|are|was|were|am))\b",
    re.IGNORECASE,
)
_VALUE_END_RE = re.compile(r"[.;!?]|\s(?:but|because|since|although|though|while)\s")
_CORRECTION_RE = re.compile(
    r"\b(?:actually|correction|i meant|meant to say|mistaken|(?:was|were|is) wrong|incorrect"
    r"|not correct|should (?:be|have been)|no longer|not anymore|anymore|any more|instead"
    r"|rather than|changed|switched)\b",
    re.IGNORECASE,
)
_ADDITIVE_RE = re.compile(
    r"\b(?:also|too|as well|in addition|additionally|another)\b", re.IGNORECASE
)
# A number or date aimed at, not held: "is trying to achieve 100% test coverage", "aims to read
# 30 books", "new target: 1:50" (``states_aim``).
_TARGET_RE = re.compile(
    r"\b(?:goals?|targets?|aim(?:s|ed|ing)? (?:to|for|at)|(?:trying|try|tries|want(?:s|ed)?"
    r"|hoping|hopes?|plan(?:s|ning)?|working) to (?:achieve|reach|hit|get to|get up to))\b",
    re.IGNORECASE,
)


# Words that stand for a person in a memory's subject (the rewrite's "the user" for a speaker
# with no name, pronouns): a person is not an attribute with one value.
_PERSONS = frozenset(
    words("user users assistant speaker person someone i me he she they we you him her them us")
)


_FROM_RE = re.compile(
    r"\b(?:switch|switched|switching|moved|moving|changed|changing|went|converted|transitioned"
    r"|swapped|upgraded|downgraded|transferred|transferring|migrated|migrating)"
    # "migrating the backend from Django to FastAPI": what moved may come between
    r"(?: (?!from\b)[\w'’]+){0,3} from (?P<x>[^,;.!?()]{1,60}?) (?:to|for|over to|into)\b",
    re.IGNORECASE,
)


def leaves_another(new: str, old: str) -> bool:
    """``new`` names what it leaves ("switched from oat milk to almond") and ``old`` mentions
    none of it: whatever ``new`` changed, it is not what ``old`` says."""
    m = _FROM_RE.search(new)
    left = m.group("x") if m else ""
    return bool(content_words(left)) and not overlaps(left, old)


def leaves_stated(new: str, old: str) -> bool:
    """``new`` names what it leaves and ``old`` says it: "transferred from payments to the
    search team" after "works on the payments team" (the stored state is the one left)."""
    m = _FROM_RE.search(new)
    left = m.group("x") if m else ""
    return bool(content_words(left)) and overlaps(left, old)


def states_aim(text: str) -> bool:
    """The wording names a target: the number or date in it is aimed at, not held."""
    return bool(_TARGET_RE.search(text))


def states_value(text: str) -> bool:
    """The text states a number or a date (a level, an amount, a day)."""
    return bool(dates(text) or numbers(text))


def detect_contradiction(
    new: str, old: str, *, new_is_correction: bool = False, alike: bool = False
) -> ContradictionCheck | None:
    """The first contradiction found between ``new`` and ``old`` (see module doc), or None.

    ``alike``: the caller found the two facts about the same thing by their meaning (the gate:
    cosine with the person's name taken out, ``windows.ALIKE``), where their words may differ
    ("the standup is at 9:30" / "heads up, the standup moved to 10:15"): an amount of the same
    measure (money, thousands, a clock time, a count of one thing) with a word around it in
    common that changed is then a change without the words' overlap (not one said as an
    addition)."""
    new_dates, old_dates = dates(new), dates(old)
    new_nums, old_nums = numbers(new), numbers(old)
    new_core, new_neg = _core(new)
    old_core, old_neg = _core(old)
    same_topic = _jaccard(new_core, old_core) >= SAME_TOPIC_JACCARD
    if same_topic and bool(new_neg) != bool(old_neg):
        sides = (old_neg or "affirmative", new_neg or "affirmative")
        return ContradictionCheck(ContradictionKind.NEGATION, sides, new_neg or old_neg)
    if same_topic and _changed(old_dates, new_dates):
        return ContradictionCheck(ContradictionKind.DATE_CHANGE, _sides(old_dates, new_dates))
    if same_topic and _changed(old_nums, new_nums):
        return ContradictionCheck(ContradictionKind.NUMBER_CHANGE, _sides(old_nums, new_nums))
    additive = _ADDITIVE_RE.search(new) is not None  # "also budgeting $60 a month for the gym"
    if alike and not (new_neg or old_neg or additive) and (measured := measure_changed(old, new)):
        return ContradictionCheck(ContradictionKind.NUMBER_CHANGE, measured)
    value = _value_change(new, old)
    if value is not None:
        return ContradictionCheck(ContradictionKind.VALUE_CHANGE, value)
    cue = _CORRECTION_RE.search(new)
    if not (cue or new_is_correction) or (_ADDITIVE_RE.search(new) and not new_is_correction):
        return None
    if leaves_another(new, old):
        return None  # "switched from Word to Scrivener" corrects nothing said of drafting
    gone, added = old_core - new_core - FRAMING, new_core - old_core - FRAMING
    # the two must share what they are about, not only whom: "Arjun had to stand on the packed
    # train" is not corrected by "Arjun can't take it anymore"
    if gone and added and (old_core & new_core) - _capitalised(new) - _capitalised(old):
        evidence = (_surface(old, gone), _surface(new, added))
        return ContradictionCheck(ContradictionKind.CORRECTION, evidence, cue[0] if cue else "")
    return None


def _capitalised(text: str) -> frozenset[str]:
    """The stems of the words written with a capital: names, mostly."""
    return frozenset(stem(t) for t in tokens(text) if t[:1].isupper())


def _core(text: str) -> tuple[frozenset[str], str]:
    """Content stems without dates, numbers and negation, and the negation cue (or "")."""
    blanked = NUMBER_RE.sub(" ", DATE_RE.sub(" ", text))
    core: set[str] = set()
    cues: list[str] = []
    for token in tokens(blanked):
        folded = token.casefold().replace("’", "'")
        if folded in _NEGATORS or folded.endswith("n't") or stem(token) in _STOP_VERBS:
            cues.append(token)
        elif folded in _ANTONYMS:
            cues.append(token)
            core.add(_ANTONYMS[folded])
        elif folded not in STOPWORDS and folded not in NUMBER_WORDS:
            core.add(stem(token))
    return frozenset(core - FRAMING), " ".join(_unique(cues))


def _value_change(new: str, old: str) -> tuple[str, str] | None:
    new_split, old_split = _split_predicate(new), _split_predicate(old)
    if new_split is None or old_split is None:
        return None
    (new_pred, new_head, new_value), (old_pred, old_head, old_value) = new_split, old_split
    if new_pred != old_pred or new_head != old_head:
        return None
    new_stems, old_stems = _stems(new_value), _stems(old_value)
    if not new_stems or not old_stems or new_stems <= old_stems or old_stems <= new_stems:
        return None  # a refinement ("Paris" -> "Paris, France"), not a change
    return old_value, new_value


def _split_predicate(text: str) -> tuple[str, frozenset[str], str] | None:
    """(canonical predicate, subject stems, value text) for the first single-valued predicate."""
    match = _PREDICATE_RE.search(text)
    if match is None or match.lastgroup is None:
        return None
    head_tokens = [t for t in tokens(text[: match.start()]) if t.casefold() not in STOPWORDS]
    head = frozenset(stem(t) for t in head_tokens) - FRAMING
    # "X is Y" is single-valued only for an attribute ("favourite colour", "birthday"), not for
    # a bare name or a person: "Caroline is a nurse" and "Caroline is a mother" are both true,
    # and so are "The user is trying to set up Flask" and "The user is using SQLite".
    attribute = [
        t
        for t in head_tokens
        if not is_specific(t) and stem(t) not in FRAMING and t.casefold() not in _PERSONS
    ]
    if not head or (match.lastgroup == "be" and not attribute):
        return None
    rest = text[match.end() :]
    end = _VALUE_END_RE.search(rest)
    value = tokens(rest[: end.start()] if end else rest)
    while value and stem(value[-1]) in FRAMING:  # "... is green now" -> "green"
        value.pop()
    return match.lastgroup, head, " ".join(value)


def _stems(text: str) -> frozenset[str]:
    return frozenset(stem(t) for t in tokens(text) if t.casefold() not in STOPWORDS)


def _changed(old: list[str], new: list[str]) -> bool:
    """Each side has a value the other lacks (a value only added or only dropped is not one)."""
    return bool(set(old) - set(new)) and bool(set(new) - set(old))


def _sides(old: list[str], new: list[str]) -> tuple[str, str]:
    return " ".join(v for v in old if v not in new), " ".join(v for v in new if v not in old)


def _surface(text: str, stems: frozenset[str]) -> str:
    return " ".join(_unique(t for t in tokens(text) if stem(t) in stems))


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    union = a | b
    return len(a & b) / len(union) if union else 0.0


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))
