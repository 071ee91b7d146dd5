"""The API load benchmark's requests and their accounting, pure (tested in
tests/unit/test_bench_api_load.py): ``plan_ops`` draws the ``recall`` / ``observe`` requests from
LoCoMo questions and turns (unique turn ids, texts and sessions per run), ``classify`` reads a
response into an error kind or the operation's result, ``summarize`` gives per-operation counts,
errors and latency percentiles (``percentile``), and ``check_turns`` is the no-loss check of the
turns sent against the episodes stored. No server, no clock.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from kgmem.records import Turn

OK_TYPES = {"recall": "RecallOk", "observe": "ObserveOk"}


def percentile(values: Sequence[float], q: float) -> float:
    """The q-quantile (0..1) with linear interpolation between closest ranks; NaN if empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    lo, hi = math.floor(pos), math.ceil(pos)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


@dataclass(frozen=True)
class Op:
    """One planned request: its kind, GraphQL variables, and the turn ids an observe sends."""

    index: int
    kind: str  # recall | observe
    variables: dict[str, Any]
    turn_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """What one request came back with; ``error`` is None when the result was OK."""

    op: Op
    ms: float
    error: str | None
    episode_ids: tuple[str, ...] = ()
    new_episodes: int = 0
    trigger: str | None = None
    extracted: int = 0
    hits: int = 0
    conflicts: int = 0  # extraction batches another writer claimed first (ObserveOk.conflicts)
    deferred: bool = False  # extraction gave up under contention (ObserveOk.deferred)


def plan_ops(
    count: int,
    observe_share: float,
    questions: Sequence[str],
    turns: Sequence[Turn],
    *,
    namespace: str,
    run_id: str,
    rng: random.Random,
    start: int = 0,
    dry: bool = False,
    limit: int = 10,
) -> list[Op]:
    """``count`` requests, ``round(count * observe_share)`` of them observes, shuffled.

    A recall asks a random question; an observe sends the next 1–3 source turns (a cursor over
    ``turns``, wrapping) in a session of its own, each with a unique turn id and text and the
    source turn's speaker and time (explicit, so a resend would name the same episode).
    """
    observes = round(count * observe_share)
    kinds = ["observe"] * observes + ["recall"] * (count - observes)
    rng.shuffle(kinds)
    cursor = rng.randrange(len(turns)) if turns else 0
    ops: list[Op] = []
    for offset, kind in enumerate(kinds):
        i = start + offset
        if kind == "recall":
            variables = {"q": rng.choice(questions), "ns": namespace, "limit": limit, "dry": dry}
            ops.append(Op(i, kind, variables))
            continue
        sent: list[dict[str, Any]] = []
        for j in range(rng.randint(1, 3)):
            src = turns[cursor % len(turns)]
            cursor += 1
            sent.append(
                {
                    "text": f"{src.text} (load {run_id} {i}.{j})",
                    "role": src.role,
                    "speaker": src.speaker,
                    "sessionId": f"load-{run_id}-{i}",
                    "at": src.at.isoformat() if src.at else None,
                    "turnId": f"load-{run_id}-{i}.{j}",
                }
            )
        ops.append(Op(i, kind, {"turns": sent, "ns": namespace}, tuple(t["turnId"] for t in sent)))
    return ops


def classify(op: Op, status: int, body: Any) -> tuple[str | None, dict[str, Any]]:
    """(error kind or None, the operation's result object) for one HTTP response."""
    if status != 200:
        code = body.get("error", {}).get("code") if isinstance(body, dict) else None
        return f"http_{status}" + (f":{code}" if code else ""), {}
    if not isinstance(body, dict):
        return "bad_json", {}
    if body.get("errors"):
        codes = sorted(
            {str((e.get("extensions") or {}).get("code", "unknown")) for e in body["errors"]}
        )
        return "graphql:" + "+".join(codes), {}
    result = (body.get("data") or {}).get(op.kind)
    if not isinstance(result, dict):
        return "no_data", {}
    typename = result.get("__typename")
    if typename == OK_TYPES[op.kind]:
        return None, result
    if typename == "Rejected":
        return f"rejected:{result.get('code')}", result
    return f"unexpected:{typename}", result


def summarize(outcomes: Iterable[Outcome], wall_s: float) -> dict[str, Any]:
    """Per operation (and ``all``): count, ok, errors by kind, latency percentiles of the OK
    requests (``p50_ms``…) and of every response (``p50_all_ms``…), requests/s."""
    by_kind: dict[str, list[Outcome]] = {}
    for o in outcomes:
        by_kind.setdefault(o.op.kind, []).append(o)
        by_kind.setdefault("all", []).append(o)
    out: dict[str, Any] = {}
    for kind in sorted(by_kind, key=lambda k: (k == "all", k)):
        rows = by_kind[kind]
        ok_ms = [o.ms for o in rows if o.error is None]
        all_ms = [o.ms for o in rows]
        out[kind] = {
            "count": len(rows),
            "ok": len(ok_ms),
            "errors": dict(Counter(o.error for o in rows if o.error is not None).most_common()),
            "p50_ms": round(percentile(ok_ms, 0.50), 1),
            "p95_ms": round(percentile(ok_ms, 0.95), 1),
            "p99_ms": round(percentile(ok_ms, 0.99), 1),
            "mean_ms": round(sum(ok_ms) / len(ok_ms), 1) if ok_ms else math.nan,
            "max_ms": round(max(ok_ms), 1) if ok_ms else math.nan,
            # every response, errors included (a rejected observe may have done real work)
            "p50_all_ms": round(percentile(all_ms, 0.50), 1),
            "p95_all_ms": round(percentile(all_ms, 0.95), 1),
            "p99_all_ms": round(percentile(all_ms, 0.99), 1),
            "req_per_s": round(len(rows) / wall_s, 2) if wall_s > 0 else math.nan,
        }
    return out


def check_turns(
    outcomes: Iterable[Outcome], episodes_by_turn: Counter[str], episode_ids: set[str]
) -> dict[str, Any]:
    """Each turn id a client got an OK receipt for must be exactly one episode in the store."""
    ok_turns: list[str] = []
    failed_turns: list[str] = []
    receipt_ids: list[str] = []
    for o in outcomes:
        if o.op.kind != "observe":
            continue
        if o.error is None:
            ok_turns += o.op.turn_ids
            receipt_ids += o.episode_ids
        else:
            failed_turns += o.op.turn_ids
    missing = sorted(t for t in ok_turns if episodes_by_turn[t] == 0)
    duplicated = sorted(t for t in ok_turns if episodes_by_turn[t] > 1)
    sent = set(ok_turns) | set(failed_turns)
    return {
        "turns_ok": len(ok_turns),
        "turns_ok_unique": len(set(ok_turns)),
        "turns_failed": len(failed_turns),
        "lost": len(missing),
        "duplicated": len(duplicated),
        "lost_examples": missing[:10],
        "duplicated_examples": duplicated[:10],
        "failed_turns_stored": sum(1 for t in failed_turns if episodes_by_turn[t] >= 1),
        "receipt_episode_ids": len(receipt_ids),
        "receipt_episode_ids_missing": sum(1 for e in receipt_ids if e not in episode_ids),
        "unknown_load_episodes": sum(
            n for t, n in episodes_by_turn.items() if t.startswith("load-") and t not in sent
        ),
    }
