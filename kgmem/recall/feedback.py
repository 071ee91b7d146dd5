"""Pseudo-relevance feedback for the text searches (RM3-style, no model): a second, wider query.

Contract: ``expansion_terms`` is pure: from the texts of the first pass's top memories (best
first) and the candidate pool they came from, it returns at most ``n_terms`` ``(word, weight)``
pairs, weight in (0, 1] (the best is 1), never a word of ``skip`` (stop words, question words,
the query's own words, the namespace's hub names) — each word scored by its share of each top
text, that text's rank (1/(1+rank)) and its rarity within the pool (log(1 + pool/df)), so words
every candidate shares add nothing. ``expanded_query`` appends them to a Lucene query at
``weight`` × their weight. ``refine`` is the I/O step a profile with ``feedback`` on runs after
the channel searches: it reads the pool's texts and the hub names, then re-runs the query's
memory and episode text searches with the expanded query, in one statement; their lists replace
the first ones, so the fusion sees one list per channel as before, while a memory's BM25 factor
stays its best share in either pass (re-reading it from the new lists alone measured 0.004 worse
held out).
One more round trip of reads and one of searches; every read is namespace-scoped.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections import Counter
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from kgmem.core.text import escape_term, word_set
from kgmem.graph import index_search, topic_repository
from kgmem.graph.client import GraphClient
from kgmem.graph.rows import ScoredId
from kgmem.recall.channels import StageClock, collect, pool_size, read_hub_words
from kgmem.recall.filters import Evidence
from kgmem.recall.fusion import fuse
from kgmem.recall.lucene import QUESTION_WORDS, hub_words, to_lucene
from kgmem.recall.profiles import Profile

if TYPE_CHECKING:
    from kgmem.recall.request import RecallRequest

FEEDBACK_DOCS = 10  # top memories of the first pass whose words are read
FEEDBACK_POOL = 50  # candidates the rarity of a word is measured among
FEEDBACK_TERMS = 10
FEEDBACK_WEIGHT = 0.3  # Lucene boost of the best expansion word (the query's own words weigh 1)
TEXT_LISTS = ("fulltext", "episode")
# Lucene's English stop words (the analyzer drops them anyway) and the pronouns and fillers of
# conversational text, which the top memories share with any other.
STOP_WORDS = word_set(
    """a an and are as at be but by for if in into is it no not of on or such that the their then
    there these they this to was will with i you he she we me my your his her our us him them its
    i'm i've i'd that's there's also just so very really about from like got get go going"""
)
_WORD_RE = re.compile(r"[a-z][a-z'’-]+")


def _words(text: str) -> list[str]:
    return [w for w in (t.strip("'’-") for t in _WORD_RE.findall(text.lower())) if len(w) >= 3]


def expansion_terms(
    top: Sequence[str], pool: Sequence[str], skip: Collection[str], n_terms: int = FEEDBACK_TERMS
) -> list[tuple[str, float]]:
    """The words the top texts share beyond the query, best first, weights scaled to the best."""
    df = Counter(w for text in pool for w in set(_words(text)))
    n = max(len(pool), 1)
    score: dict[str, float] = {}
    for rank, text in enumerate(top):
        words = [w for w in _words(text) if w not in skip]
        length = len(_words(text))
        for word, count in Counter(words).items():
            rarity = math.log(1 + n / max(df[word], 1))
            score[word] = score.get(word, 0.0) + count / length / (1 + rank) * rarity
    best = sorted(score.items(), key=lambda ws: (-ws[1], ws[0]))[:n_terms]
    if not best or best[0][1] <= 0:
        return []
    return [(w, s / best[0][1]) for w, s in best if s > 0]


def expanded_query(base: str, terms: Sequence[tuple[str, float]], weight: float) -> str:
    """``base`` OR each expansion word at ``weight`` × its own weight."""
    return " OR ".join([base, *(f"{escape_term(w)}^{weight * s:.3f}" for w, s in terms)])


async def refine(
    graph: GraphClient,
    req: RecallRequest,
    profile: Profile,
    ev: dict[str, Evidence],
    rankings: list[tuple[str, list[str]]],
    run: StageClock,
) -> None:
    """Re-run the query's text searches with feedback words, replacing their first lists."""
    lists = [name for name in TEXT_LISTS if name in req.channels]
    if not lists or not any(name in lists for name, _ in rankings):
        return
    pool = [mid for mid, _ in fuse(rankings, profile.channel_weights)[:FEEDBACK_POOL]]
    texts_read = topic_repository.find_memory_contents(graph, namespace=req.namespace, ids=pool)
    if profile.hub_boost != 1.0:
        texts, hubs = await asyncio.gather(
            texts_read, read_hub_words(graph, req.namespace, run.queries)
        )
    else:
        texts, hubs = await texts_read, frozenset()
    run.queries.append("find_memory_contents")
    base = to_lucene(req.query, hubs, profile.hub_boost, QUESTION_WORDS)
    if base is None:
        return
    skip = STOP_WORDS | QUESTION_WORDS | hubs | hub_words([req.query])
    docs = [texts.get(mid, "") for mid in pool]
    terms = expansion_terms(docs[:FEEDBACK_DOCS], docs, skip)
    if not terms:
        return
    lucene = expanded_query(base, terms, FEEDBACK_WEIGHT)
    k = pool_size(req)
    memory, episode = await index_search.search_text_memories(
        graph,
        namespace=req.namespace,
        query=lucene,
        k=k,
        limit=k,
        memory="fulltext" in lists,
        episode="episode" in lists,
    )
    # feedback asks for no unclaimed turns (turn_limit 0): every row is a memory hit
    rows = [
        [r for r in (memory if name == "fulltext" else episode) or [] if isinstance(r, ScoredId)]
        for name in lists
    ]
    run.queries.append("search_text_memories")
    rankings[:] = [(name, ranking) for name, ranking in rankings if name not in lists]
    for e in ev.values():
        for name in lists:
            e.ranks.pop(name, None)
    for mid in [mid for mid, e in ev.items() if not e.ranks]:
        del ev[mid]
    for name, found in zip(lists, rows, strict=True):
        collect(ev, rankings, name, found, "fulltext")
    run.tick("feedback")
