"""Extraction coverage of the local engine: which turns give at least one memory, with no graph.

``python -m benchmarks.quality.extraction_coverage`` parses BEAM dev user turns
(``../shared/data/beam``, BEAM: Tavakoli et al., 2025, CC-BY-SA-4.0) and LoCoMo dev turns with the
real spaCy pipeline and runs them through what ``ingest.preparation`` runs before the graph: the
observer filters (``screen``), then ``extract_local`` in conversation order, ``--batch`` turns at a
time (the write path's batch by default: coreference and "you" reach across a batch). It
reports, per half of BEAM (conversations 1-5 tune, 6-10 confirm), the share of user turns with
>= 1 fact and the share of the items' evidence turns (``new_ids``, ``old_ids``, ``first_ids``,
``second_ids``, ``evidence_ids``, ``ordered_evidence_ids``) with >= 1 fact, the skip reasons of the
turns without one, and facts per turn on LoCoMo. ``--dump`` writes every turn's facts as JSON;
``--compare`` reads such a dump and prints facts that are new since it (a random sample), so a
change of the extractor can be judged by what it adds. ``--misses`` prints evidence turns that
still give nothing. Pure apart from reading the data and writing ``--dump``.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from benchmarks.common.paths import BEAM as BEAM_DATA
from benchmarks.common.paths import LOCOMO as LOCOMO_DATA
from benchmarks.quality.locomo.data import load_locomo
from kgmem.ingest.extraction.batches import BATCH_EPISODES
from kgmem.ingest.extractors.local import extract_local
from kgmem.ingest.extractors.preparation import screen
from kgmem.ml.nlp import Nlp
from kgmem.records import Turn, TurnSkip
from kgmem.settings import Settings

EVIDENCE_FIELDS = (
    "new_ids",
    "old_ids",
    "first_ids",
    "second_ids",
    "evidence_ids",
    "ordered_evidence_ids",
)
HALVES = {"tune (1-5)": range(1, 6), "confirm (6-10)": range(6, 11)}


@dataclass(frozen=True)
class TurnResult:
    conv: str
    turn_id: str
    text: str
    facts: tuple[str, ...]
    reasons: tuple[str, ...]  # why it gave no fact (empty when it gave one)


def beam_turns(n: int) -> list[Turn]:
    """Conversation ``100K/n``'s user turns, timestamped ``date`` + ``id`` minutes (its README)."""
    turns = []
    for line in (BEAM_DATA / "turns" / f"100K_{n}.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["role"] != "user":
            continue
        at = datetime.fromisoformat(row["date"] + "T00:00:00+00:00")
        at += timedelta(minutes=row["id"])
        turns.append(Turn(row["content"], "user", at=at, turn_id=str(row["id"])))
    return turns


def beam_evidence() -> dict[str, set[str]]:
    """Evidence turn ids per conversation ("100K/3" → {"12", ...}) over every item file."""
    out: dict[str, set[str]] = {}
    for path in sorted(BEAM_DATA.glob("items_*.jsonl")):
        for line in path.read_text().splitlines():
            item = json.loads(line)
            ids = out.setdefault(item["conv"], set())
            for name in EVIDENCE_FIELDS:
                ids.update(str(i) for i in item.get(name) or ())
    return out


def run(conv: str, turns: Sequence[Turn], nlp: Any, batch: int) -> Iterator[TurnResult]:
    """Each turn's facts, the way ``prepare`` would extract them, ``batch`` turns at a time."""
    for start in range(0, len(turns), batch):
        chunk = turns[start : start + batch]
        screened = [screen(t) for t in chunk]
        kept = [t for t in screened if isinstance(t, Turn)]
        extraction = extract_local(kept, list(nlp.pipe(t.text for t in kept)))
        by_turn: dict[str, list[str]] = {}
        for f in extraction.facts:
            for tid in f.source_turn_ids:
                by_turn.setdefault(tid, []).append(f.content)
        skipped = {s.turn_id: s.reasons for s in extraction.skips}
        for t, seen in zip(chunk, screened, strict=True):
            tid = t.turn_id or ""
            reasons = seen.reasons if isinstance(seen, TurnSkip) else skipped.get(tid, ())
            yield TurnResult(conv, tid, t.text, tuple(by_turn.get(tid, ())), reasons)


def share(rows: Sequence[TurnResult]) -> str:
    hit = sum(bool(r.facts) for r in rows)
    return f"{hit / len(rows):.3f} ({hit}/{len(rows)})" if rows else "n/a"


def report_beam(results: dict[int, list[TurnResult]], evidence: dict[str, set[str]]) -> None:
    print("BEAM dev, user turns | >= 1 fact (all user turns) | >= 1 fact (evidence turns)")
    for name, convs in HALVES.items():
        rows = [r for n in convs for r in results.get(n, ())]
        ev = [r for r in rows if r.turn_id in evidence.get(r.conv, set())]
        if rows:
            print(f"  {name}: {share(rows)} | {share(ev)}")
    reasons = Counter(x for rs in results.values() for r in rs if not r.facts for x in r.reasons)
    print("  skip reasons of turns without a fact:", dict(reasons.most_common()))


def report_locomo(results: list[TurnResult]) -> None:
    by_conv: dict[str, list[TurnResult]] = {}
    for r in results:
        by_conv.setdefault(r.conv, []).append(r)
    print("LoCoMo dev | turns | facts | facts per turn | >= 1 fact")
    for conv, rows in by_conv.items():
        n = sum(len(r.facts) for r in rows)
        print(f"  {conv} | {len(rows)} | {n} | {n / len(rows):.2f} | {share(rows)}")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        prog="python -m benchmarks.quality.extraction_coverage",
        description=__doc__.split("\n\n")[0],
    )
    ap.add_argument("--beam", type=int, nargs="*", default=list(range(1, 11)), help="conv numbers")
    ap.add_argument("--locomo", type=int, default=2, help="LoCoMo conversations (first N)")
    ap.add_argument(
        "--batch", type=int, default=BATCH_EPISODES, help="turns per extract_local call"
    )
    ap.add_argument("--dump", type=Path, help="write every turn's facts here (JSON)")
    ap.add_argument("--compare", type=Path, help="a previous --dump: print a sample of new facts")
    ap.add_argument("--sample", type=int, default=30, help="new facts to print with --compare")
    ap.add_argument("--misses", type=int, default=0, help="evidence turns without a fact to print")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    nlp = Nlp(Settings()).pipeline()
    beam = {n: list(run(f"100K/{n}", beam_turns(n), nlp, args.batch)) for n in args.beam}
    samples = load_locomo(LOCOMO_DATA)[: args.locomo]
    locomo = [
        r
        for s in samples
        for r in run(
            s.sample_id,
            [Turn(t.text, "user", t.speaker, at=t.at, turn_id=t.dia_id) for t in s.turns],
            nlp,
            args.batch,
        )
    ]
    evidence = beam_evidence()
    report_beam(beam, evidence)
    report_locomo(locomo)
    everything = [r for rs in beam.values() for r in rs] + locomo
    rng = random.Random(args.seed)
    if args.misses:
        missed = [r for r in everything if not r.facts and r.turn_id in evidence.get(r.conv, ())]
        for r in rng.sample(missed, min(args.misses, len(missed))):
            print(f"MISS {r.conv} {r.turn_id} {r.reasons}: {r.text[:300]!r}")
    if args.compare:
        before = json.loads(args.compare.read_text())
        new = [
            (r.conv, r.turn_id, f)
            for r in everything
            for f in r.facts
            if f not in before.get(r.conv, {}).get(r.turn_id, [])
        ]
        print(f"new facts since {args.compare.name}: {len(new)}")
        for conv, tid, f in rng.sample(new, min(args.sample, len(new))):
            print(f"NEW {conv} {tid}: {f}")
    if args.dump:
        dump: dict[str, dict[str, list[str]]] = {}
        for r in everything:
            dump.setdefault(r.conv, {})[r.turn_id] = list(r.facts)
        args.dump.write_text(json.dumps(dump, indent=1))


if __name__ == "__main__":
    main()
