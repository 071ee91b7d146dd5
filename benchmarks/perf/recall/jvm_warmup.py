"""Warming a Neo4j server up until its JIT compilers have settled, before recalls are timed.

A fresh JVM compiles its hot paths (Bolt, the Cypher runtime, Lucene, the HNSW search) for about
a thousand recalls, and the compiler threads share the 2 cores with everything else. Measured on a
fresh server over the 100k store, in batches of 100 default recalls: compiler CPU
per recall 110 ms over the first batch, 37 and 26 over the next two, 8-12 over recalls 300-600,
then 1-7; server CPU per recall fell from 197 ms to 15-20 ms, and the p50 of the timed questions
from 27.3 ms after 300 recalls to 21.8-23.9 ms after 600 or more. A fixed count of 200 warm-up
recalls therefore timed a server still compiling.

``warm_up`` runs ``Kgmem.recall`` (dry) in batches of ``WARM_BATCH`` questions that are never
timed, each batch with the next variant's options (each variant runs its own statements), until
``settled``: at least ``Warmup.least`` recalls, and the compilers used at most
``Warmup.jit_ms_per_recall`` ms of CPU per recall over the last ``SETTLE_BATCHES`` batches, or
``Warmup.most`` recalls were run. Without a compiler reading (a server this process did not
start) it runs ``least``. It prints one line per batch, and returns what it did for the result
file (``warmup_md``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kgmem.service import Kgmem

WARM_BATCH = 100
SETTLE_BATCHES = 3


@dataclass(frozen=True)
class Warmup:
    least: int  # recalls at least
    most: int  # recalls at most
    jit_ms_per_recall: float  # the compilers' CPU per recall over a batch that counts as settled


def settled(budget: Warmup, done: int, jit_ms: Sequence[float | None]) -> bool:
    """True once the warm-up may stop: ``done`` recalls so far, ``jit_ms`` the compiler CPU per
    recall of each batch so far (None: unknown, so only the count decides). Compilation comes in
    bursts (single batches of 1-7 ms well after a thousand recalls), so the mean of the last
    ``SETTLE_BATCHES`` batches decides, not one lucky batch."""
    if done >= budget.most:
        return True
    if done < budget.least:
        return False
    last = [ms for ms in jit_ms[-SETTLE_BATCHES:] if ms is not None]
    if len(last) < len(jit_ms[-SETTLE_BATCHES:]):  # no reading: the count decided
        return True
    return len(last) == SETTLE_BATCHES and sum(last) / SETTLE_BATCHES <= budget.jit_ms_per_recall


async def warm_up(
    km: Kgmem,
    ns: str,
    pool: Sequence[str],
    variants: Sequence[dict[str, Any]],
    budget: Warmup,
    jit_s: Callable[[], float] | None,
) -> dict[str, Any]:
    """Untimed dry recalls over ``pool`` (cycled) in namespace ``ns`` until ``settled``."""
    if not pool or not variants:
        raise ValueError("warm-up needs questions and at least one variant")
    done, batch = 0, 0
    per_batch: list[float | None] = []
    t0 = time.perf_counter()
    while not settled(budget, done, per_batch):
        opts = {**variants[batch % len(variants)], "dry": True}
        jit0 = jit_s() if jit_s else None
        for i in range(WARM_BATCH):
            await km.recall(pool[(done + i) % len(pool)], namespace=ns, **opts)
        done, batch = done + WARM_BATCH, batch + 1
        jit_ms = (jit_s() - jit0) * 1000 / WARM_BATCH if jit_s and jit0 is not None else None
        per_batch.append(jit_ms)
        shown = "n/a" if jit_ms is None else f"{jit_ms:.1f}"
        print(f"  warm-up {ns}: {done} recalls, JIT CPU {shown} ms per recall", flush=True)
    last = [ms for ms in per_batch[-SETTLE_BATCHES:] if ms is not None]
    return {
        "recalls": done,
        "seconds": round(time.perf_counter() - t0, 1),
        "last_jit_cpu_ms_per_recall": round(sum(last) / len(last), 1) if last else None,
        "settled_at_ms": budget.jit_ms_per_recall,
    }


def warmup_md(warmups: Sequence[dict[str, Any]]) -> str:
    """One line per size: how long its warm-up ran and where the compilers ended."""
    lines = []
    for w in warmups:
        last = w["last_jit_cpu_ms_per_recall"]
        jit = "not readable (server not started here)" if last is None else f"{last} ms"
        lines.append(
            f"- {w['memories']} memories: {w['recalls']} untimed recalls in {w['seconds']} s; "
            f"JIT compiler CPU per recall over the last {SETTLE_BATCHES * WARM_BATCH}: {jit} "
            f"(settled at ≤ {w['settled_at_ms']} ms)"
        )
    return (
        "Warm-up before each size's first row (`benchmarks.perf.recall.jvm_warmup`):\n\n"
        + "\n".join(lines)
    )
