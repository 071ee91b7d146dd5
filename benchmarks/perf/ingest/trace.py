"""Benchmark instrumentation: where the write path's model calls and Neo4j round trips go.

``Tracer.attach(km)`` wraps one ``Kgmem``'s embedder and graph client (instance attributes), and
the graph client's statement runner (module-level, so every client of the process while
attached), and records every embed call (batch size, how many of its texts were distinct, how
many had already been embedded earlier in the run), every Neo4j transaction (single statement or
batched write) with its wall time, and every named statement inside them with its wall time. The
benchmark reads ``summary()`` after the run; ``detach()`` restores the originals. Timings are
wall clock in this process, so they include waiting for the server and the driver's work. Given
``server_cpu`` (a reader of the Neo4j process's CPU seconds), it also charges the server's CPU to
each statement and transaction (statements run one at a time, so the server's CPU between a
statement's start and end is that statement's, give or take the 10 ms tick and background
threads); a batched write's server CPU beyond its statements' is its commit.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kgmem.graph import client
from kgmem.graph.client import Step
from kgmem.service import Kgmem


@dataclass
class Tracer:
    embed_calls: list[dict[str, Any]] = field(default_factory=list)
    transactions: Counter[str] = field(default_factory=Counter)
    statements: Counter[str] = field(default_factory=Counter)
    statement_s: dict[str, float] = field(default_factory=dict)
    steps: Counter[str] = field(default_factory=Counter)
    step_s: dict[str, float] = field(default_factory=dict)
    texts: list[str] = field(default_factory=list)
    server_cpu: Callable[[], float] | None = None
    statement_cpu: dict[str, float] = field(default_factory=dict)
    step_cpu: dict[str, float] = field(default_factory=dict)
    _seen: set[str] = field(default_factory=set)
    _originals: dict[str, Any] = field(default_factory=dict)

    def attach(self, km: Kgmem) -> Tracer:
        embed, run, write_batch = km.embedder.embed, km.graph.run, km.graph.write_batch
        self._originals = {"embed": embed, "run": run, "write_batch": write_batch, "km": km}

        def traced_embed(texts: Sequence[str]) -> list[list[float]]:
            t0 = time.perf_counter()
            out = embed(texts)
            self.embed_calls.append(
                {
                    "texts": len(texts),
                    "distinct": len(set(texts)),
                    "seen_before": sum(1 for t in set(texts) if t in self._seen),
                    "seconds": time.perf_counter() - t0,
                }
            )
            self._seen.update(texts)
            self.texts += texts
            return out

        async def traced_run(name: str, **params: Any) -> Any:
            t0, c0 = time.perf_counter(), self._cpu()
            try:
                return await run(name, **params)
            finally:
                self._count(name, time.perf_counter() - t0, self._cpu() - c0)
                self.transactions["single"] += 1

        async def traced_write_batch(steps: Sequence[Step]) -> Any:
            t0, c0 = time.perf_counter(), self._cpu()
            in_steps = sum(self.step_cpu.values())
            try:
                return await write_batch(steps)
            finally:
                cpu = self._cpu() - c0
                self._count("+".join(s.name for s in steps), time.perf_counter() - t0, cpu)
                self.transactions["batch"] += 1
                # what the transaction cost beyond its statements: commit, index maintenance
                commit = cpu - (sum(self.step_cpu.values()) - in_steps)
                self.step_cpu["(commit)"] = self.step_cpu.get("(commit)", 0.0) + commit

        work = client._work
        self._originals["work"] = work

        def traced_work(query: Any, params: dict[str, Any], graph: Any) -> Any:
            inner = work(query, params, graph)

            async def timed(tx: Any) -> Any:
                t0, c0 = time.perf_counter(), self._cpu()
                try:
                    return await inner(tx)
                finally:
                    self.steps[query.name] += 1
                    self.step_s[query.name] = self.step_s.get(query.name, 0.0) + (
                        time.perf_counter() - t0
                    )
                    self.step_cpu[query.name] = (
                        self.step_cpu.get(query.name, 0.0) + self._cpu() - c0
                    )

            return timed

        client._work = traced_work  # type: ignore[assignment]
        km.embedder.embed = traced_embed  # type: ignore[method-assign]
        km.graph.run = traced_run  # type: ignore[method-assign]
        km.graph.write_batch = traced_write_batch  # type: ignore[method-assign]
        return self

    def _cpu(self) -> float:
        return self.server_cpu() if self.server_cpu is not None else 0.0

    def _count(self, name: str, seconds: float, cpu: float) -> None:
        self.statements[name] += 1
        self.statement_s[name] = self.statement_s.get(name, 0.0) + seconds
        self.statement_cpu[name] = self.statement_cpu.get(name, 0.0) + cpu

    def detach(self) -> None:
        if "work" in self._originals:
            client._work = self._originals.pop("work")
        km = self._originals.pop("km", None)
        if km is not None:
            for attr in ("embed", "run", "write_batch"):
                owner = km.embedder if attr == "embed" else km.graph
                delattr(owner, attr)

    def _by_statement(self) -> dict[str, float]:
        out = dict(self.step_cpu)
        for name, cpu in self.statement_cpu.items():
            if "+" not in name:  # a single statement (a batch's share is in its steps)
                out[name] = out.get(name, 0.0) + cpu
        return {k: round(v, 2) for k, v in sorted(out.items(), key=lambda kv: -kv[1])}

    def summary(self) -> dict[str, Any]:
        calls = self.embed_calls
        texts = sum(c["texts"] for c in calls)
        return {
            "embed_calls": len(calls),
            "embed_texts": texts,
            "embed_distinct_in_call": sum(c["distinct"] for c in calls),
            "embed_seen_before": sum(c["seen_before"] for c in calls),
            "embed_batch_sizes": sorted(c["texts"] for c in calls),
            "embed_s": sum(c["seconds"] for c in calls),
            "embed_texts_per_s": texts / s if (s := sum(c["seconds"] for c in calls)) else 0.0,
            "transactions": dict(self.transactions),
            "queries": {
                name: {
                    "calls": n,
                    "seconds": round(self.statement_s[name], 3),
                    "server_cpu_s": round(self.statement_cpu[name], 2),
                }
                for name, n in self.statements.most_common()
            },
            "statements": {
                name: {
                    "calls": n,
                    "seconds": round(self.step_s[name], 3),
                    "server_cpu_s": round(self.step_cpu[name], 2),
                }
                for name, n in self.steps.most_common()
            },
            # server CPU per named statement, wherever it ran (alone or in a batched write), and
            # the batched writes' commits
            "server_cpu_by_statement": self._by_statement(),
        }
