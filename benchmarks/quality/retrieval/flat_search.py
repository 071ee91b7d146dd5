"""The flat retrievers the benchmarks compare kgmem against, over one document per turn.

Contract: ``BM25`` (Okapi, k1 = 1.5, b = 0.75, lowercase ``[a-z0-9]+`` words from ``tokenize``
minus a small English stop-word list), ``DenseIndex`` (cosine over the vectors of any
``TextEmbedder``, all-MiniLM-L6-v2 through ``kgmem.ml.embedder`` in the benchmarks) and ``fuse``
(reciprocal rank fusion, k = 60, of full rankings). Each ranks document indices, best first, ties
by index. Pure apart from the embedder it is given.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

_STOP_TEXT = """
    a about after again all am an and any are as at be been before being but by can could did
    do does doing for from had has have having he her here hers him his how i if in into is it
    its itself just me my myself no nor not of off on once only or other our ours out over own
    s same she should so some such t than that the their theirs them then there these they this
    those to too under until up very was we were what when where which while who whom why will
    with would you your yours yourself
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())
_WORD = re.compile(r"[a-z0-9]+")


def tokenize(text: str) -> list[str]:
    """Lowercase ``[a-z0-9]+`` words, stop words removed."""
    return [w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS]


class BM25:
    """Okapi BM25 over a fixed corpus: k1 = 1.5, b = 0.75, idf = ln(1 + (N-df+.5) / (df+.5))."""

    def __init__(
        self,
        documents: Sequence[str],
        *,
        k1: float = 1.5,
        b: float = 0.75,
        tokenizer: Callable[[str], list[str]] = tokenize,
    ) -> None:
        self.k1 = k1
        self.b = b
        self.tokenizer = tokenizer
        self._tfs = [Counter(tokenizer(d)) for d in documents]
        self._lengths = [sum(tf.values()) for tf in self._tfs]
        n = len(documents)
        self._avgdl = (sum(self._lengths) / n) if n else 0.0
        df: Counter[str] = Counter()
        for tf in self._tfs:
            df.update(tf.keys())
        self._idf = {t: math.log(1.0 + (n - c + 0.5) / (c + 0.5)) for t, c in df.items()}
        self._postings: dict[str, list[int]] = {}
        for i, tf in enumerate(self._tfs):
            for t in tf:
                self._postings.setdefault(t, []).append(i)

    def scores(self, query: str) -> list[float]:
        """One score per document, in corpus order (query terms counted once each)."""
        out = [0.0] * len(self._tfs)
        for term in dict.fromkeys(self.tokenizer(query)):
            idf = self._idf.get(term)
            if idf is None:
                continue
            for i in self._postings[term]:
                tf = self._tfs[i][term]
                norm = self.k1 * (1.0 - self.b + self.b * self._lengths[i] / self._avgdl)
                out[i] += idf * tf * (self.k1 + 1.0) / (tf + norm)
        return out

    def rank(self, query: str) -> list[int]:
        """Document indices, best first; ties (including all-zero scores) in corpus order."""
        s = self.scores(query)
        return sorted(range(len(s)), key=lambda i: (-s[i], i))


class TextEmbedder(Protocol):
    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


class DenseIndex:
    """Cosine ranking over normalised embeddings of a fixed corpus."""

    def __init__(self, embedder: TextEmbedder, documents: Sequence[str]) -> None:
        import numpy as np

        self._embedder = embedder
        self._matrix = np.asarray(embedder.embed(list(documents)), dtype=np.float32)

    def rank_many(self, queries: Sequence[str]) -> list[list[int]]:
        import numpy as np

        if not queries:
            return []
        q = np.asarray(self._embedder.embed(list(queries)), dtype=np.float32)
        sims = q @ self._matrix.T
        # stable sort on the negated similarity: ties keep corpus order
        return [[int(i) for i in np.argsort(-row, kind="stable")] for row in sims]


def fuse(rankings: Iterable[Sequence[str]], *, k: int = 60) -> list[str]:
    """Reciprocal rank fusion of ranked id lists; ties broken by the id's first appearance."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        seen: set[str] = set()
        for rank, item in enumerate(ranking, start=1):
            if item in seen:
                continue
            seen.add(item)
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    order = {item: i for i, item in enumerate(scores)}
    return sorted(scores, key=lambda item: (-scores[item], order[item]))
