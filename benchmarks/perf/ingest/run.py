"""Ingest benchmark: LoCoMo dev conversations through kgmem's write path with the local engine.

Reports, on a private local Neo4j: turns/s and memories/s end to end (intake + extraction +
commit), the time split by stage (signal scan, spaCy, local extraction, embedding, gate, linking,
Neo4j write), and the models alone on the same texts (spaCy over the turns, the embedder over
the texts the pipeline embedded), so the share of time spent outside the models is visible.
Optionally it measures how the gate's neighbour lookup grows with the store size, and (``--floor``)
the cheapest write of the same result (``floor``) with the arithmetic of whether the
75 % target can be met on this machine at all. The JSON holds each namespace's result fingerprint
(counts per label / edge type / receipt action and the memory texts) to compare runs.
``report`` renders the Markdown, ``gate_scale`` times the lookup, ``server_cpu`` reads the
server's CPU.

    python -m benchmarks.perf.ingest [--conversations conv-26 conv-30] [--gate-scale 1000 10000]
                                [--floor]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.common.harness import local_stack, write_result
from benchmarks.common.paths import LOCOMO, add_out_argument
from benchmarks.perf.ingest import report as ingest_report
from benchmarks.perf.ingest.floor import fingerprint, floor
from benchmarks.perf.ingest.gate_scale import gate_scale
from benchmarks.perf.ingest.trace import Tracer
from benchmarks.perf.server_cpu import server_cpu, server_cpu_reader
from kgmem.graph import repository
from kgmem.input_files import read_locomo
from kgmem.service import Kgmem


async def ingest(
    km: Kgmem,
    path: Path,
    conversations: list[str] | None,
    with_floor: bool = False,
    warm_up: bool = False,
) -> dict[str, Any]:
    convs = [c for c in read_locomo(path) if not conversations or c.sample_id in conversations]
    turns = sum(len(c.turns) for c in convs)
    timings: dict[str, float] = {}
    memories = 0
    texts: list[str] = []
    # A server loads both models at startup (api lifespan); the first call here would otherwise
    # charge the imports and weight loading (tens of seconds) to the embed and spaCy stages.
    t0 = time.perf_counter()
    km.embedder.embed(["warm-up"])
    list(km.nlp.pipeline().pipe(["Warm-up."]))
    load_s = time.perf_counter() - t0
    # A fresh JVM compiles Neo4j's Cypher runtime and index code as the first statements run
    # (server CPU a long-running server does not spend again): --warm-up ingests the same
    # conversations once into throw-away namespaces, records that cold cost, and deletes them.
    cold = await _cold_run(km, convs) if warm_up else None
    tracer = Tracer(server_cpu=server_cpu_reader(km)).attach(km)
    load_before = os.getloadavg()
    cpu0 = time.process_time()
    server0 = server_cpu(km)
    t_start = time.perf_counter()
    per_conv: list[dict[str, Any]] = []
    receipts: dict[str, list[Any]] = {}
    for conv in convs:
        ns = f"bench-{conv.sample_id}"
        t0 = time.perf_counter()
        reports = []
        for i in range(0, len(conv.turns), 200):  # intake in chunks, as a client streams turns
            obs = await km.observe(list(conv.turns[i : i + 200]), namespace=ns)
            if obs.extraction is not None:  # a smart-buffer trigger fired: extraction ran too
                reports.append(obs.extraction)
        reports.append(await km.extract_pending(namespace=ns))
        receipts[ns] = [r for report in reports for r in report.receipts]
        for report in reports:
            for k, v in report.timings.items():
                timings[k] = timings.get(k, 0.0) + v
        mems = await repository.find_memories(km.graph, namespace=ns, statuses=None, limit=100_000)
        memories += len(mems)
        texts += [m["content"] for m in mems]
        per_conv.append(
            {
                "id": conv.sample_id,
                "turns": len(conv.turns),
                "memories": len(mems),
                "seconds": round(time.perf_counter() - t0, 1),
            }
        )
        print(f"  {per_conv[-1]}", flush=True)
    total = time.perf_counter() - t_start
    cpu = time.process_time() - cpu0
    server = server_cpu(km) - server0
    load_after = os.getloadavg()
    trace = tracer.summary()
    tracer.detach()
    timings["intake"] = intake_seconds(trace)
    # The models alone, on the same inputs: spaCy over the turn texts, the embedder over the
    # memory texts (what the pipeline embeds, less the entity names and merged texts).
    turn_texts = [t.text for c in convs for t in c.turns]
    t0, c0 = time.perf_counter(), time.process_time()
    list(km.nlp.pipeline().pipe(turn_texts))
    spacy_alone, spacy_alone_cpu = time.perf_counter() - t0, time.process_time() - c0
    t0, c0 = time.perf_counter(), time.process_time()
    km.embedder.embed(texts)
    embed_alone, embed_alone_cpu = time.perf_counter() - t0, time.process_time() - c0
    # The same embedder on exactly the texts the pipeline sent it (facts before the batch dedup,
    # entity names, merged texts), in one call.
    embedded = list(dict.fromkeys(tracer.texts))
    t0, c0 = time.perf_counter(), time.process_time()
    km.embedder.embed(embedded)
    pipeline_texts_alone, pipeline_texts_cpu = time.perf_counter() - t0, time.process_time() - c0
    fingerprints = {ns: await fingerprint(km, ns, got) for ns, got in receipts.items()}
    floors = [await floor(km, ns, server_cpu) for ns in receipts] if with_floor else []
    return {
        "cold": cold,
        "fingerprints": fingerprints,
        "floor": _floor_sum(floors) if floors else None,
        "model_load_s": load_s,
        "load_average_before": load_before,
        "load_average_after": load_after,
        "process_cpu_s": cpu,
        "server_cpu_s": server,
        "embed_alone_cpu_s": embed_alone_cpu,
        "spacy_alone_cpu_s": spacy_alone_cpu,
        # the same ratio in CPU seconds (this process + the Neo4j server), robust to load
        "embed_alone_cpu_ratio": embed_alone_cpu / (cpu + server) if cpu + server else 0.0,
        "models_alone_cpu_ratio": (embed_alone_cpu + spacy_alone_cpu) / (cpu + server)
        if cpu + server
        else 0.0,
        "pipeline_texts": len(embedded),
        "pipeline_texts_alone_s": pipeline_texts_alone,
        "pipeline_texts_alone_cpu_s": pipeline_texts_cpu,
        "trace": trace,
        "conversations": [c.sample_id for c in convs],
        "per_conversation": per_conv,
        "turns": turns,
        "memories": memories,
        "seconds": total,
        "turns_per_s": turns / total,
        "memories_per_s": memories / total,
        "stages": timings,
        "spacy_alone_s": spacy_alone,
        "embed_alone_s": embed_alone,
        "embed_alone_texts_per_s": len(texts) / embed_alone if embed_alone else 0.0,
        "models_share": (spacy_alone + embed_alone) / total,
        # issue 3's target: end-to-end memories/s over the embedder-alone memories/s ≥ 0.75
        "embed_alone_ratio": embed_alone / total,
    }


INTAKE_STATEMENTS = ("create_episodes", "get_pending_summary")


def intake_seconds(trace: dict[str, Any]) -> float:
    """Wall seconds of the intake statements in a ``Tracer.summary()``.

    Intake is the episode writes and the buffer check (the stages of a batch overlap the next
    one's, so wall time minus the stage times no longer isolates it). ``observe`` runs them as
    statements of their own, which the tracer files under ``queries``; ``statements`` holds the
    steps of batched writes (and, under an earlier tracer, a copy of every single statement
    too, so adding it would count intake twice).
    """
    return float(sum(trace["queries"].get(q, {}).get("seconds", 0.0) for q in INTAKE_STATEMENTS))


async def _cold_run(km: Kgmem, convs: list[Any]) -> dict[str, float]:
    cpu0, server0, t0 = time.process_time(), server_cpu(km), time.perf_counter()
    for conv in convs:
        ns = f"warm-{conv.sample_id}"
        for i in range(0, len(conv.turns), 200):
            await km.observe(list(conv.turns[i : i + 200]), namespace=ns)
        await km.extract_pending(namespace=ns)
    out = {
        "seconds": time.perf_counter() - t0,
        "process_cpu_s": time.process_time() - cpu0,
        "server_cpu_s": server_cpu(km) - server0,
    }
    for conv in convs:
        await repository.delete_namespace(km.graph, namespace=f"warm-{conv.sample_id}")
    return out


def _floor_sum(floors: list[dict[str, Any]]) -> dict[str, Any]:
    keys = ("nodes", "edges", "wall_s", "nodes_s", "edges_s", "client_cpu_s", "server_cpu_s")
    return {k: sum(f[k] for f in floors) for k in keys} | {"per_namespace": floors}


async def main(args: argparse.Namespace) -> None:
    async with local_stack(home=Path(args.home) if args.home else None) as km:
        res = None
        if not args.skip_ingest:
            res = await ingest(km, Path(args.data), args.conversations, args.floor, args.warm_up)
        scale = []
        if args.gate_scale:
            texts = [t.text for c in read_locomo(Path(args.data)) for t in c.turns]
            scale = await gate_scale(km, args.gate_scale, texts)
    print(ingest_report.report(res, scale))
    if res is not None:
        print(json.dumps(res["trace"], indent=1))
    write_result(
        args.name, ingest_report.report(res, scale), {"ingest": res, "gate_scale": scale}, args.out
    )


def cli(argv: Sequence[str] | None = None) -> int:
    """The command line: parse ``argv`` (default: ``sys.argv``), run, write the result."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.perf.ingest", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--data", default=str(LOCOMO))
    parser.add_argument("--conversations", nargs="*")
    parser.add_argument("--gate-scale", nargs="*", type=int, default=[])
    parser.add_argument("--skip-ingest", action="store_true", help="the gate scale only")
    parser.add_argument(
        "--floor", action="store_true", help="also time the bare write of the same result"
    )
    parser.add_argument(
        "--warm-up", action="store_true", help="ingest once untimed first (warm server JIT)"
    )
    parser.add_argument(
        "--home", help="keep the server's store in this folder (default: a temporary one)"
    )
    parser.add_argument("--name", default="ingest", help="result file name (before the date)")
    add_out_argument(parser)
    asyncio.run(main(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    raise SystemExit(cli())
