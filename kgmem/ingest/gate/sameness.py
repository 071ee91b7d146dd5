"""Whether a near neighbour states the *same* fact as a candidate, beyond what cosine says.

Contract, pure: ``separate_occurrences(a, b)`` is true when both texts carry resolved dates (the
local extractor writes them inline as ISO dates: "2023-05-07", "week of 2023-05-29", "2023-06")
and no date is shared: two pride parades in June and August are two events, not one event told
twice, whatever their cosine. ``shared_wording(a, b, subject)`` is the share of the smaller
text's content stems, the subject's names left out, that the other text also has. Sentence
embeddings put any two short statements about one person close together ("Caroline has got
guts" and "Caroline has such a caring heart" score above 0.85 with all-MiniLM-L6-v2), so the gate
asks for shared wording before it merges two texts into one memory; without these checks a
memory absorbs everything said about its subject, one merge at a time, and becomes a blob that
answers every query badly.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kgmem.core.synthesis import content_stems

_ISO_DATE_RE = re.compile(r"\b\d{4}-\d{2}(?:-\d{2})?\b")

# Below this share of the smaller text's own words (the subject aside) two statements are
# different facts about one subject, not two tellings of one fact. Restatements measured on the
# gate's tests share two thirds ("Jon works at Acme as an engineer" / "Jon is a senior engineer
# at Acme Corp"); different facts about one person share a third or less.
MIN_SHARED_WORDING = 0.4


def occurrence_dates(text: str) -> frozenset[str]:
    """The ISO dates (day or month) a text names."""
    return frozenset(_ISO_DATE_RE.findall(text))


def separate_occurrences(a: str, b: str) -> bool:
    """Both texts are dated and share no date: two occurrences, not one fact."""
    da, db = occurrence_dates(a), occurrence_dates(b)
    return bool(da) and bool(db) and not (da & db)


def shared_wording(a: str, b: str, subject: Iterable[str] = ()) -> float:
    """Share of the smaller text's content stems (subject names and dates aside) in the other."""
    drop = {s for name in subject for s in content_stems(name)}
    sa = {s for s in content_stems(_ISO_DATE_RE.sub(" ", a)) if s not in drop}
    sb = {s for s in content_stems(_ISO_DATE_RE.sub(" ", b)) if s not in drop}
    if not sa or not sb:
        return 1.0  # nothing but the subject on one side: wording cannot tell them apart
    return len(sa & sb) / min(len(sa), len(sb))
