"""Filtered vector search per namespace: Neo4j 5.26 post-filtering against a calendar release's
in-index filter, on the same synthetic store, back to back.

Contract: two servers already running (``--old`` a 5.26 + GDS launcher, ``--new`` a calendar
release's), each given its launcher's pid so its CPU (JVM included) is read from /proc.
``--build`` writes the same store into both: namespaces of the given sizes (default 1k, 10k,
100k: 111k memories in one shared vector index), each memory a LoCoMo turn's real
all-MiniLM-L6-v2 embedding plus Gaussian noise (sigma 0.015, re-normalised, as
``benchmarks.common.synth``), every namespace drawing from the same turns so each is crowded by the
others' near neighbours. The old server gets today's index
(``kgmem/cypher/schema/02_vector_indexes.cypher``); the new one the same index with the
namespace as a filter property and the same scalar quantization (the calendar release's
default, binary quantization, lost up to half of a 100k namespace's exact top 50 in a trial).
The timed query is recall's vector channel, top 50 of one namespace for a LoCoMo question's
embedding: on the old server today's statement (``kgmem/cypher/search_memory_vector.cypher``)
with its widening and start-window memo (``kgmem.graph.index_search``), on the new one a
Cypher 25 ``SEARCH ... WHERE m.namespace`` and, as a control, today's statement too. The
variants run interleaved in batches of ``--queries`` after ``--warmup`` untimed queries each, so
the machine's load falls on all alike. Reported per size and variant: client wall p50 / p95 ms,
the server's CPU ms per query, and the overlap of the 50 ids with the namespace's exact top 50
(numpy brute force). Talks to Neo4j through the driver directly (a per-file exception in
pyproject.toml): it times raw statements on two server versions, one of them outside kgmem's
query catalog.

    python -m benchmarks.perf.filtered_vector --old bolt://127.0.0.1:P1 --old-pid PID1 \
        --new bolt://127.0.0.1:P2 --new-pid PID2 --build --cache DIR --name NAME
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import neo4j
import numpy as np

from benchmarks.common.paths import LOCOMO, REPO, add_out_argument, result_path
from benchmarks.perf.api_load.run import load_inputs
from benchmarks.perf.api_load.server import tree_cpu_s
from kgmem.graph.index_search import StartWindows, _Search

ROOT = REPO
K = 50
BATCH = 2000
OLD_INDEX = (ROOT / "kgmem/cypher/schema/02_vector_indexes.cypher").read_text()
OLD_SEARCH = (ROOT / "kgmem/cypher/search_memory_vector.cypher").read_text()
NEW_INDEX = """CYPHER 25 CREATE VECTOR INDEX memory_embedding IF NOT EXISTS
FOR (n:Memory) ON n.embedding WITH [n.namespace]
OPTIONS { indexConfig: { `vector.dimensions`: 384, `vector.similarity_function`: 'cosine',
                         `vector.quantization.type`: 'SCALAR' } }"""
NEW_SEARCH = """CYPHER 25
MATCH (m:Memory)
  SEARCH m IN (VECTOR INDEX memory_embedding FOR $embedding WHERE m.namespace = $namespace
               LIMIT $limit) SCORE AS score
RETURN collect({id: m.id, score: score}) AS hits"""


def statements(text: str) -> list[str]:
    body = "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("//"))
    return [s.strip() for s in body.split(";") if s.strip()]


def embeddings(cache: Path) -> tuple[np.ndarray, np.ndarray]:
    """LoCoMo turn and question embeddings, computed once and kept in ``cache``."""
    cache.mkdir(parents=True, exist_ok=True)
    turns_f, questions_f = cache / "turns.npy", cache / "questions.npy"
    if not turns_f.exists():
        from kgmem.ml.embedder import Embedder
        from kgmem.settings import Settings

        questions, _, texts = load_inputs(LOCOMO)
        emb = Embedder(Settings())
        np.save(turns_f, np.asarray(emb.embed(texts), dtype=np.float32))
        np.save(questions_f, np.asarray(emb.embed_query(questions[:400]), dtype=np.float32))
    return np.load(turns_f), np.load(questions_f)


def store(base: np.ndarray, sizes: list[int], seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    out = {}
    for size in sizes:
        picks = rng.integers(0, len(base), size)
        vecs = base[picks] + rng.normal(0, 0.015, (size, base.shape[1])).astype(np.float32)
        out[f"fv-{size}"] = vecs / np.linalg.norm(vecs, axis=1, keepdims=True)
    return out


def build(driver: neo4j.Driver, schema: list[str], data: dict[str, np.ndarray]) -> float:
    t0 = time.perf_counter()
    for stmt in schema:
        driver.execute_query(stmt)
    for ns, vecs in data.items():
        for lo in range(0, len(vecs), BATCH):
            rows = [
                {"id": f"{ns}-{i}", "embedding": vecs[i].tolist()}
                for i in range(lo, min(lo + BATCH, len(vecs)))
            ]
            driver.execute_query(
                "UNWIND $rows AS r CREATE (:Memory {id: r.id, namespace: $ns, "
                "embedding: r.embedding})",
                rows=rows,
                ns=ns,
            )
    await_online(driver)
    return time.perf_counter() - t0


def await_online(driver: neo4j.Driver) -> None:
    # Polled: the launcher ends a transaction after 120 s, shorter than a 111k population.
    while True:
        recs, _, _ = driver.execute_query("SHOW INDEXES YIELD state WHERE state <> 'ONLINE'")
        if not recs:
            return
        time.sleep(2)


def exact_top(vecs: np.ndarray, ns: str, queries: np.ndarray) -> list[set[str]]:
    sims = queries @ vecs.T
    top = np.argsort(-sims, axis=1)[:, :K]
    return [{f"{ns}-{i}" for i in row} for row in top]


Search = Callable[[str, list[float]], list[str]]


def post_filter(driver: neo4j.Driver) -> Search:
    """Today's statement with its widening and memo, as ``index_search`` runs it."""
    memo = StartWindows()

    def search(ns: str, emb: list[float]) -> list[str]:
        s = _Search(("search_memory_vector", ns, K), K, "hits")
        s.k = memo.start(s.key)
        while s.hits is None:
            windows = s.windows()
            recs, _, _ = driver.execute_query(
                OLD_SEARCH, namespace=ns, embedding=emb, windows=windows, limit=K
            )
            s.take(memo, windows, dict(recs[0]))
        return [h["id"] for h in s.hits]

    return search


def filtered(driver: neo4j.Driver) -> Search:
    def search(ns: str, emb: list[float]) -> list[str]:
        recs, _, _ = driver.execute_query(NEW_SEARCH, namespace=ns, embedding=emb, limit=K)
        return [h["id"] for h in recs[0]["hits"]]

    return search


def batch(search: Search, ns: str, qs: list[list[float]], pid: int) -> dict[str, Any]:
    cpu0 = tree_cpu_s(pid)
    walls, ids = [], []
    for q in qs:
        t0 = time.perf_counter()
        ids.append(search(ns, q))
        walls.append((time.perf_counter() - t0) * 1000)
    return {"walls": walls, "ids": ids, "cpu_s": tree_cpu_s(pid) - cpu0}


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def main(args: argparse.Namespace) -> None:
    base, questions = embeddings(Path(args.cache))
    data = store(base, args.sizes, args.seed)
    old = neo4j.GraphDatabase.driver(args.old, auth=None)
    new = neo4j.GraphDatabase.driver(args.new, auth=None)
    lines = [f"# Filtered vector search per namespace ({args.name})", ""]
    if args.build:
        t_old = build(old, statements(OLD_INDEX)[:1], data)
        t_new = build(new, [NEW_INDEX], data)
        lines.append(f"Store built: old {t_old:.0f} s, new {t_new:.0f} s.")
    versions = []
    for d in (old, new):
        recs, _, _ = d.execute_query(
            "CALL dbms.components() YIELD versions RETURN versions[0] AS v"
        )
        versions.append(recs[0]["v"])
    variants: dict[str, tuple[Search, int]] = {
        f"{versions[0]} post-filter (today)": (post_filter(old), args.old_pid),
        f"{versions[1]} SEARCH ... WHERE namespace": (filtered(new), args.new_pid),
    }
    if args.control:
        variants[f"{versions[1]} post-filter (control)"] = (post_filter(new), args.new_pid)
    qs = [q.tolist() for q in questions]
    timed_qs = qs[: args.queries]
    warm_qs = qs[args.queries : args.queries + args.warmup] or qs
    load0 = os.getloadavg()
    lines += [
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; load average at start "
        f"{load0[0]:.2f} / {load0[1]:.2f} / {load0[2]:.2f}.",
        "",
        "| namespace | variant | p50 / p95 ms | server CPU ms/query | exact top-50 overlap "
        "(mean / min) | load avg (1 min) during row |",
        "|---:|---|---|---:|---|---|",
    ]
    for ns, vecs in data.items():
        truth = exact_top(vecs, ns, np.asarray(timed_qs, dtype=np.float32))
        for search, _ in variants.values():  # warm-up, untimed
            for i in range(args.warmup):
                search(ns, warm_qs[i % len(warm_qs)])
        acc: dict[str, dict[str, Any]] = {
            v: {"walls": [], "ids": [], "cpu_s": 0.0, "load": []} for v in variants
        }
        for _ in range(args.rounds):  # interleaved: each round runs every variant once
            for name, (search, pid) in variants.items():
                got = batch(search, ns, timed_qs, pid)
                acc[name]["walls"] += got["walls"]
                acc[name]["ids"] = got["ids"]
                acc[name]["cpu_s"] += got["cpu_s"]
                acc[name]["load"].append(os.getloadavg()[0])
        for name, a in acc.items():
            overlap = [len(set(ids) & t) / K for ids, t in zip(a["ids"], truth, strict=True)]
            n = len(a["walls"])
            lines.append(
                f"| {len(vecs):,} | {name} | {pct(a['walls'], 0.5):.1f} / "
                f"{pct(a['walls'], 0.95):.1f} | {1000 * a['cpu_s'] / n:.1f} | "
                f"{statistics.mean(overlap):.3f} / {min(overlap):.2f} | "
                f"{min(a['load']):.1f}–{max(a['load']):.1f} |"
            )
        print("\n".join(lines[-len(acc) :]), flush=True)
    load1 = os.getloadavg()
    lines += [
        "",
        f"Load average at end {load1[0]:.2f} / {load1[1]:.2f} / {load1[2]:.2f}. "
        f"{args.queries} LoCoMo questions x {args.rounds} interleaved rounds per row after "
        f"{args.warmup} untimed queries per variant and namespace; top {K}.",
    ]
    out = result_path(args.out, args.name)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")
    print(f"written: {out}")


if __name__ == "__main__":
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.perf.filtered_vector", description=__doc__
    )
    p.add_argument("--old", required=True)
    p.add_argument("--old-pid", type=int, required=True)
    p.add_argument("--new", required=True)
    p.add_argument("--new-pid", type=int, required=True)
    p.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    p.add_argument("--queries", type=int, default=100)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--warmup", type=int, default=300)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--build", action="store_true")
    p.add_argument("--control", action="store_true", help="also today's statement on --new")
    p.add_argument("--cache", required=True, help="where the embeddings are kept between runs")
    p.add_argument("--name", default="filtered-vector", help="result file name (before the date)")
    add_out_argument(p)
    main(p.parse_args())
