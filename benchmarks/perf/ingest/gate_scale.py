"""Gate scale: how the gate's neighbour lookup grows with the store size.

``gate_scale(km, sizes, texts)`` fills one namespace per size with synthetic memories (the
embeddings of ``texts`` with small Gaussian noise, unit-normalised) and times the gate's
neighbour lookup for a batch of 64 candidates at k = 10 (median of 5, wall), with the server's
CPU per candidate (robust to load) and the statements per lookup (> 1 means the search widened).
``gate_scale_lines`` renders the rows as the Markdown table of the ingest report.
"""

from __future__ import annotations

import os
import random
import time
import uuid
from datetime import UTC, datetime
from typing import Any

from benchmarks.perf.server_cpu import server_cpu
from kgmem.graph import index_search, repository
from kgmem.service import Kgmem


async def gate_scale(km: Kgmem, sizes: list[int], texts: list[str]) -> list[dict[str, Any]]:
    """Time the gate's neighbour lookup (64 candidates, k=10) against stores of growing size."""
    out = []
    base = km.embedder.embed(texts[:512])
    rng = random.Random(1)
    for size in sizes:
        ns = f"gate-{size}"
        now = datetime.now(UTC)
        for i in range(0, size, 2000):
            rows = []
            for j in range(i, min(size, i + 2000)):
                v = base[j % len(base)]
                vec = [x + rng.gauss(0, 0.02) for x in v]
                norm = sum(x * x for x in vec) ** 0.5
                text = f"{texts[j % len(texts)]} (variant {j})"
                rows.append(
                    {
                        "key": j,
                        "episode_ids": [],
                        "props": {
                            "id": str(uuid.uuid4()),
                            "content": text,
                            "content_hash": f"h{j}",
                            "status": "active",
                            "category": "fact",
                            "created_at": now,
                            "embedding": [x / norm for x in vec],
                        },
                    }
                )
            await km.graph.write_batch([repository.create_memories(namespace=ns, memories=rows)])
        items = [{"key": k, "hash": f"q{k}", "embedding": base[k]} for k in range(64)]
        times = []
        server0, calls0 = server_cpu(km), km.graph.statements_run
        for _ in range(5):
            t0 = time.perf_counter()
            await index_search.search_memory_neighbours(km.graph, namespace=ns, items=items, k=10)
            times.append(time.perf_counter() - t0)
        server = server_cpu(km) - server0
        times.sort()
        out.append(
            {
                "memories": size,
                "median_ms_per_batch_of_64": round(times[2] * 1000, 1),
                "ms_per_candidate": round(times[2] * 1000 / 64, 2),
                # server CPU is robust to load; statements > 1 per lookup means it widened
                "server_cpu_ms_per_candidate": round(server * 1000 / (5 * 64), 2),
                "statements_per_lookup": (km.graph.statements_run - calls0) / 5,
                "load_average": round(os.getloadavg()[0], 1),
            }
        )
        print(f"  gate lookup at {size}: {out[-1]}", flush=True)
    return out


def gate_scale_lines(scale: list[dict[str, Any]], shared_index: bool) -> list[str]:
    """The gate scale table; ``shared_index`` when ingested namespaces share the vector index."""
    lines = [
        "",
        "Gate neighbour lookup (64 candidates, k = 10) by store size"
        + (" (the ingested namespaces share the vector index)" if shared_index else "")
        + ":",
        "",
        "| memories | ms per batch (wall) | ms per candidate (wall) | server CPU ms per "
        "candidate | statements per lookup | load average |",
        "|---|---|---|---|---|---|",
    ]
    return lines + [
        f"| {s['memories']} | {s['median_ms_per_batch_of_64']} | {s['ms_per_candidate']} "
        f"| {s['server_cpu_ms_per_candidate']} | {s['statements_per_lookup']} "
        f"| {s['load_average']} |"
        for s in scale
    ]
