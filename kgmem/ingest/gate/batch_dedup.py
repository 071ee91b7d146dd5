"""Duplicates inside one batch (docs/write-path.md, before the gate): ``group_batch`` collapses
the candidates of one batch in first-seen order, so one batch never creates two copies of a
memory. Duplicates are the same normalised text (tier 1), the same words up to case,
punctuation, articles and inflection, or, with embeddings, cosine ≥ the gate's ``REINFORCE_SIM``
where one text covers every specific of the other and neither contradicts the other. The
survivor keeps the richer text and the union of source turns, entities, relations and tags, so
every turn stays traceable. Pure and idempotent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from kgmem.core.synthesis import content_stems, covers, specifics, stem, tokens
from kgmem.core.text import content_hash, normalize_name
from kgmem.errors import InvalidInput
from kgmem.ingest.gate.contradiction import detect_contradiction
from kgmem.ingest.gate.windows import SIM_EPS
from kgmem.ingest.gate.write_gate import REINFORCE_SIM, aware_utc
from kgmem.records import EntityMention, ExtractedFact


@dataclass(frozen=True)
class BatchGroup:
    """Candidates of one batch collapsed into one: the merged fact, the input indices it stands
    for, and the index whose text (and embedding) it carries."""

    fact: ExtractedFact
    members: tuple[int, ...]
    representative: int


def group_batch(
    candidates: Sequence[ExtractedFact],
    *,
    embeddings: Sequence[Sequence[float]] | None = None,
) -> list[BatchGroup]:
    """Collapse duplicates within one batch, in first-seen order (see ``batch_dedup``)."""
    if embeddings is not None and len(embeddings) != len(candidates):
        raise InvalidInput(f"{len(embeddings)} embeddings for {len(candidates)} candidates")
    # Every pair of a batch is compared (quadratic): the cosines come from one matrix product and
    # each text's hash and word key are computed once, not per pair (a 140-fact batch spent
    # 1.4 s of CPU in per-pair pure-Python cosines and hashes).
    sims = _cosine_matrix(embeddings) if embeddings is not None else None
    keys: dict[str, tuple[str, tuple[str, ...]]] = {}
    groups: list[BatchGroup] = []
    for index, fact in enumerate(candidates):
        current, position = BatchGroup(fact, (index,), index), len(groups)
        while True:  # a merge can make the survivor a duplicate of another group: repeat
            match = next(
                (k for k, g in enumerate(groups) if _batch_duplicates(g, current, sims, keys)),
                None,
            )
            if match is None:
                break
            current = _merge_groups(groups.pop(match), current)
            position = min(position, match)
        groups.insert(position, current)
    return groups


def batch_dedup(
    candidates: Sequence[ExtractedFact],
    *,
    embeddings: Sequence[Sequence[float]] | None = None,
) -> list[ExtractedFact]:
    """The batch without duplicates, so one batch never creates two copies of a memory.

    Duplicates are the same normalised text (tier 1), the same words up to case, punctuation,
    articles and inflection, or — with ``embeddings`` — cosine ≥ ``REINFORCE_SIM`` where one text
    covers every specific of the other and they do not contradict. The survivor keeps the richer
    text and the union of source_turn_ids, entities, relations and tags (every turn stays
    traceable). Idempotent: ``batch_dedup(batch_dedup(x)) == batch_dedup(x)``.
    """
    return [group.fact for group in group_batch(candidates, embeddings=embeddings)]


def _batch_duplicates(
    a: BatchGroup,
    b: BatchGroup,
    sims: npt.NDArray[np.float64] | None,
    keys: dict[str, tuple[str, tuple[str, ...]]],
) -> bool:
    x, y = a.fact.content, b.fact.content
    (hx, wx), (hy, wy) = _text_key(x, keys), _text_key(y, keys)
    if hx == hy or wx == wy:
        return True
    if sims is None:
        return False
    if float(sims[a.representative, b.representative]) < REINFORCE_SIM - SIM_EPS:
        return False
    if detect_contradiction(x, y) is not None or detect_contradiction(y, x) is not None:
        return False
    return covers(x, y) or covers(y, x)


def _text_key(
    text: str, keys: dict[str, tuple[str, tuple[str, ...]]]
) -> tuple[str, tuple[str, ...]]:
    if text not in keys:
        keys[text] = (content_hash(text), _word_key(text))
    return keys[text]


def _cosine_matrix(embeddings: Sequence[Sequence[float]]) -> npt.NDArray[np.float64]:
    """Pairwise cosines; a zero vector has cosine 0 with everything."""
    m = np.asarray(embeddings, dtype=np.float64)
    if m.size == 0:
        return np.zeros((len(embeddings), len(embeddings)))
    norms = np.linalg.norm(m, axis=1)
    scale = np.outer(norms, norms)
    dots = m @ m.T
    return np.divide(dots, scale, out=np.zeros_like(dots), where=scale != 0)


def _merge_groups(a: BatchGroup, b: BatchGroup) -> BatchGroup:
    """``a`` came first in the batch; the survivor's text is the one that covers the other's
    specifics (then the one with more specifics, then more content words, then the earlier)."""
    x, y = a.fact.content, b.fact.content
    b_wins = _richness(y, x) > _richness(x, y)
    keep, other = (b, a) if b_wins else (a, b)
    members = tuple(sorted(a.members + b.members))
    return BatchGroup(_merge_facts(keep.fact, other.fact), members, keep.representative)


def _richness(text: str, other: str) -> tuple[bool, int, int]:
    return covers(text, other), len(specifics(text)), len(content_stems(text))


def _merge_facts(keep: ExtractedFact, other: ExtractedFact) -> ExtractedFact:
    extra: dict[str, EntityMention] = {}
    known = {normalize_name(e.name) for e in keep.entities}
    for e in other.entities:  # its spans point into the other text, so they lose their offsets
        if normalize_name(e.name) not in known:
            extra.setdefault(normalize_name(e.name), replace(e, start=-1, end=-1))
    vivid = other if other.arousal > keep.arousal else keep  # emotion of the more aroused telling
    starts = [aware_utc(t) for t in (keep.valid_from, other.valid_from) if t is not None]
    return replace(
        keep,
        confidence=max(keep.confidence, other.confidence),
        entities=keep.entities + tuple(extra.values()),
        relations=tuple(dict.fromkeys(keep.relations + other.relations)),
        valid_from=min(starts) if starts else None,  # true since it was first said to be
        valid_until=keep.valid_until if keep.valid_until is not None else other.valid_until,
        valence=vivid.valence,
        arousal=vivid.arousal,
        emotion=vivid.emotion,
        source_turn_ids=tuple(dict.fromkeys(keep.source_turn_ids + other.source_turn_ids)),
        tags=tuple(dict.fromkeys(keep.tags + other.tags)),
    )


_ARTICLES = frozenset({"a", "an", "the"})


def _word_key(text: str) -> tuple[str, ...]:
    return tuple(stem(t) for t in tokens(text) if t.casefold() not in _ARTICLES)
