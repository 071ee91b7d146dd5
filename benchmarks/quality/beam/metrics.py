"""BEAM benchmark: the ranked turn list, the per-ability metrics and the BM25 baseline. Pure.

Contract: ``depth_first_turns`` turns recall's hits (each a list of source turn ids, most
relevant first) into one ranking: every turn of hit 1, then of hit 2, …, first occurrence wins.
``score_item`` scores one item's ranking for ``KS`` = 1, 5, 10 (ranks are 1-based, a turn not
ranked has rank ∞):
- knowledge update: ``current_hit@k`` (a ``new_ids`` turn in the top k), ``stale@k``
  (``stale_outranks_current``: an ``old_ids`` turn in the top k ranks above every new one,
  including a new one that is missing; lower is better; a turn that is both old and new
  never outranks itself), ``current_first@k`` (a new turn in the top k at or above every old
  one), ``mrr`` of the first new turn. For every k, current_first + stale + (neither side in
  the top k) = 1.
- contradiction: ``pair_both@k`` (a turn of each side in the top k), ``r@k`` over both sides.
- temporal: ``r@k`` over ``evidence_ids``.
- event ordering: ``r@k`` over all steps' ids, and ``order@k``: among the steps found in the
  top k (a step's place is its best-ranked turn), the share of step pairs that come back in
  the order they happened (ties left out; NaN when fewer than two steps are comparable, and
  then left out of the mean).
``beam_tokenize`` / ``bm25_rankings`` are the README's flat baseline: Okapi BM25 (k1 1.2, b 0.75,
lowercase ``[a-z0-9$%]+`` tokens, no stop words) over a conversation's user turns.
``aggregate`` averages per dev half and the whole split, per ability (and the clean knowledge
updates); ``pooled_share`` is the share of distinct evidence turns some memory derives from.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence

from benchmarks.quality.beam.data import ALL, HALVES, BeamItem, Conversation, split_of
from benchmarks.quality.retrieval.flat_search import BM25
from benchmarks.quality.retrieval.metrics import hit_at_k, mrr, recall_at_k

KS = (1, 5, 10)
_TOKEN = re.compile(r"[a-z0-9$%]+")
NOT_RANKED = math.inf


def depth_first_turns(turn_lists: Iterable[Sequence[str]]) -> list[str]:
    """All turns of the first hit, then of the second, …; first occurrence wins."""
    return list(dict.fromkeys(t for turns in turn_lists for t in turns))


def best_rank(ranked: Sequence[str], ids: Iterable[str]) -> float:
    """1-based rank of the best-ranked of ``ids``; ``inf`` when none is ranked."""
    wanted = set(ids)
    return next((i for i, t in enumerate(ranked, start=1) if t in wanted), NOT_RANKED)


def stale_outranks_current(
    ranked: Sequence[str], new: Sequence[str], old: Sequence[str], k: int
) -> float:
    """1.0 when an old turn in the top k ranks above every new turn (present or not)."""
    r_old = best_rank(ranked, old)
    return 1.0 if r_old <= k and r_old < best_rank(ranked, new) else 0.0


def current_first(ranked: Sequence[str], new: Sequence[str], old: Sequence[str], k: int) -> float:
    """1.0 when a new turn is in the top k and no old turn ranks above it."""
    r_new = best_rank(ranked, new)
    return 1.0 if r_new <= k and r_new <= best_rank(ranked, old) else 0.0


def pair_both(ranked: Sequence[str], first: Sequence[str], second: Sequence[str], k: int) -> float:
    """1.0 when a turn of each side of a contradiction is in the top k."""
    return hit_at_k(ranked, first, k) * hit_at_k(ranked, second, k)


def order_agreement(ranked: Sequence[str], steps: Sequence[Sequence[str]], k: int) -> float:
    """Share of the pairs of found steps (in the top k) that come back in their true order."""
    unique = list(dict.fromkeys(tuple(s) for s in steps))  # a step named twice counts once
    places = [best_rank(ranked[:k], s) for s in unique]
    found = [p for p in places if p != NOT_RANKED]
    agree = disagree = 0
    for i, a in enumerate(found):
        for b in found[i + 1 :]:
            if a < b:
                agree += 1
            elif a > b:
                disagree += 1
    total = agree + disagree
    return agree / total if total else math.nan


def score_item(item: BeamItem, ranked: Sequence[str]) -> dict[str, float]:
    """The item's metrics (see the module contract) for its ability."""
    out: dict[str, float] = {}
    if item.ability == "knowledge_update":
        for k in KS:
            out[f"current_hit@{k}"] = hit_at_k(ranked, item.new_ids, k)
            out[f"stale@{k}"] = stale_outranks_current(ranked, item.new_ids, item.old_ids, k)
            out[f"current_first@{k}"] = current_first(ranked, item.new_ids, item.old_ids, k)
        out["mrr"] = mrr(ranked, item.new_ids)
    elif item.ability == "contradiction_resolution":
        for k in KS:
            out[f"pair_both@{k}"] = pair_both(ranked, item.first_ids, item.second_ids, k)
        for k in KS:
            out[f"r@{k}"] = recall_at_k(ranked, item.evidence, k)
    elif item.ability == "temporal_reasoning":
        for k in KS:
            out[f"r@{k}"] = recall_at_k(ranked, item.evidence_ids, k)
    elif item.ability == "event_ordering":
        for k in KS:
            out[f"r@{k}"] = recall_at_k(ranked, item.evidence, k)
        for k in KS:
            out[f"order@{k}"] = order_agreement(ranked, item.order, k)
    else:
        raise ValueError(f"unknown BEAM ability: {item.ability!r}")
    return out


def mean_scores(rows: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """Mean of each metric over the rows, NaNs left out; ``n`` = rows, ``n_<metric>`` where a
    metric had NaNs (so the report can say over how many items it is)."""
    out: dict[str, float] = {"n": float(len(rows))}
    for name in rows[0] if rows else ():
        values = [r[name] for r in rows if not math.isnan(r[name])]
        out[name] = math.fsum(values) / len(values) if values else math.nan
        if len(values) != len(rows):
            out[f"n_{name}"] = float(len(values))
    return out


def beam_tokenize(text: str) -> list[str]:
    """Lowercase ``[a-z0-9$%]+`` tokens (prices and percentages stay words); no stop words."""
    return _TOKEN.findall(text.lower())


def bm25_rankings(conversation: Conversation, questions: Sequence[str]) -> list[list[str]]:
    """One ranking of the conversation's user turn ids per question (ties in turn order)."""
    users = conversation.user_turns
    index = BM25([t.text for t in users], k1=1.2, b=0.75, tokenizer=beam_tokenize)
    return [[users[i].turn_id for i in index.rank(q)] for q in questions]


def item_groups(item: BeamItem) -> tuple[str, ...]:
    """The report groups an item counts in: its ability, and ``knowledge_update clean``."""
    if item.ability == "knowledge_update" and item.clean:
        return (item.ability, "knowledge_update clean")
    return (item.ability,)


def aggregate(
    scored: Sequence[tuple[BeamItem, Mapping[str, float]]],
) -> dict[str, dict[str, dict[str, float]]]:
    """Mean metrics per split (each dev half and ``ALL``) and group (``item_groups``)."""
    buckets: dict[str, dict[str, list[Mapping[str, float]]]] = {}
    for item, scores in scored:
        for split in (split_of(item.conv), ALL):
            for group in item_groups(item):
                buckets.setdefault(split, {}).setdefault(group, []).append(scores)
    order = [*HALVES, ALL]
    return {
        split: {group: mean_scores(rows) for group, rows in sorted(buckets[split].items())}
        for split in order
        if split in buckets
    }


def pooled_share(turns: Iterable[tuple[str, str]], covered: Mapping[str, set[str]]) -> float:
    """Share of distinct (conversation, turn id) pairs whose turn is in ``covered[conv]``."""
    unique = set(turns)
    if not unique:
        return math.nan
    return sum(1 for conv, t in unique if t in covered.get(conv, set())) / len(unique)
