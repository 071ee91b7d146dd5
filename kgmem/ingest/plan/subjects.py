"""Each candidate's subject for the gate: the name it is about as a unit vector, and its cosine.

The gate compares a candidate with its neighbours with that name taken out
(``core.said_similarity``): a name shared by two facts of one person says nothing about whether
they state one attribute. ``with_subjects`` finds each candidate's subject text
(``subject_match.subject_text``: the speaker's name as the rewrite wrote it, else the leading
name), takes its vector from the batch's entity-name vectors or embeds the rest (one name per
call, through the embedder's query cache), and returns the candidates with ``subject`` and
``subject_similarity`` set (None when a fact names no one). Runs the embedder: call it in a
thread.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from kgmem.core.text import normalize_name
from kgmem.ingest.gate.subject_match import subject_text
from kgmem.ingest.plan.records import Candidate


def with_subjects(
    candidates: Sequence[Candidate],
    speakers: Sequence[str | None],
    name_vectors: dict[str, list[float]],
    embed: Callable[[list[str]], list[list[float]]],
) -> list[Candidate]:
    """The candidates with their subject's unit vector and their cosine to it; ``speakers[i]`` is
    the name the rewrite used for candidate i's speaker (None when it has no source turn).
    ``embed`` is called with one name at a time, so a cached embedder (``Embedder.embed_query``)
    runs the model once for a name every batch repeats ("the user")."""
    texts = [subject_text(c.fact.content, s) for c, s in zip(candidates, speakers, strict=True)]
    vectors: dict[str, list[float]] = {}
    missing = []
    for t in {t for t in texts if t}:
        known = name_vectors.get(normalize_name(t))
        if known is not None:
            vectors[t] = known
        else:
            missing.append(t)
    for t in sorted(missing):
        vectors[t] = embed([t])[0]
    out = []
    for c, text in zip(candidates, texts, strict=True):
        if not text:
            out.append(c)
            continue
        s = unit(vectors[text])
        own = float(unit(c.embedding) @ s)
        out.append(replace(c, subject=s.tolist(), subject_similarity=own))
    return out


def unit(v: Sequence[float]) -> np.ndarray:
    """``v`` as a float64 unit vector (a zero vector as it is)."""
    a = np.asarray(v, dtype=np.float64)
    norm = float(np.linalg.norm(a))
    return a / norm if norm > 0 else a
