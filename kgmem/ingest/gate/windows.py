"""The gate's windows below a near-duplicate: how alike a neighbour must be for the gate to ask
whether the candidate contradicts it, replaces it or gives up the plan it states.

Each window has two floors. A candidate whose subject name is known (``Candidate.subject``) is
compared by ``said_similarity``: both facts with that name taken out, because a name shared by two
facts of one person lifts their cosine by about 0.2 whatever they say, and an unnamed user's
facts ("The user ...") get no such lift. Without a subject the raw cosine and its floor apply.
The said floors were set so that, on the named half of the truth corpus, as many pairs of facts
fall in each window as under the raw floors tuned there (0.60 → 0.39, 0.50 → 0.25): named
speakers keep the gate they had, unnamed ones get the same (changes in the contradiction window:
0.32 → 0.72 of the corpus's pairs; unrelated facts of one person in it: under 0.5 %).
Pure: no I/O.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kgmem.core.said_similarity import said_similarity
from kgmem.ingest.gate.records import Neighbour


@dataclass(frozen=True)
class Window:
    """A floor on the raw cosine and the same floor on the cosine without the subject's name."""

    raw: float
    said: float


# Contradictions are looked for from the PROXY_DEDUP_SIM (0.60), just above its reconcile
# window's floor (0.55): related enough to be about the same thing, far below a duplicate.
CONTRADICTION = Window(raw=0.60, said=0.39)
# A person's own state said again as changed ("Arjun changed to psychology" after "Arjun's degree
# is in accounting", cosine 0.58) retires the nearest same-subject state down to this floor: the
# change wording, not the likeness of the words, says they are one attribute. Tuned on the truth
# corpus's tune half (benchmarks/quality/truth).
REPLACEMENT = Window(raw=0.50, said=0.25)
# Two facts this alike are about the same thing even when their words differ (a rent and a
# standup time said again with a new amount: said cosine 0.69-0.70, a bedtime 0.82): an amount
# of the same measure that changed between them, with a word around it in common, is a change
# whichever slots the claim lexicon read them as (a misread slot must not hide it).
ALIKE = Window(raw=0.75, said=0.60)
SIM_EPS = 1e-9  # a cosine of 0.60 computed as 0.5999999999 is still 0.60


def without_name(n: Neighbour, own: float | None) -> float | None:
    """The neighbour's cosine to the candidate with the subject's name taken out, or None when
    either side's cosine to the name is unknown; ``own`` is the candidate's."""
    if own is None or n.subject_similarity is None:
        return None
    value = said_similarity(float(n.similarity), own, float(n.subject_similarity))
    return None if math.isnan(value) else value


def within(n: Neighbour, own: float | None, window: Window) -> bool:
    """Whether the neighbour is alike enough for ``window`` (see module doc)."""
    value = without_name(n, own)
    if value is not None:
        return value >= window.said - SIM_EPS
    raw = float(n.similarity)
    return not math.isnan(raw) and raw >= window.raw - SIM_EPS
