"""``truth.claims``: why the claim rule does or does not act on each ``truth`` scenario, offline.

Contract. For every scenario of :mod:`benchmarks.quality.truth.corpus`, the old and the new
statement are extracted by the local engine (real spaCy, as ``observe`` does, one turn at a time at
the turn's own time), each fact is embedded (real embedder) and its claim is read the way the write
path reads it (``kgmem.ingest.claims.reading.read_claim``); then the gate's claim rule
(``claim_rule.claim_conflict``) is asked whether some new fact's claim changes some old fact's
claim. Each scenario gets one **bucket**: ``acts`` (a new claim retires an old memory),
``no_old_claim`` / ``no_new_claim`` (no claim read on that side), ``other_subject``,
``other_slot`` (the slot families differ), ``other_qualifier``, ``same_value`` (the values were
taken for the same thing), ``low_confidence`` (the rule would act but the claim is below the
threshold) or ``no_change`` (same slot, the rule saw no change: an addition on a multi-valued
slot, a transition on another value). For a change ``acts`` is wanted, for a control it is a
false retirement. No Neo4j: this isolates claim reading from the gate's graph reads and from
recall, so it runs in seconds and names the failing stage. What the full benchmark measures
(statuses in the graph, recall) is :mod:`benchmarks.quality.truth`.

CLI: ``python -m benchmarks.quality.truth.claims [--half tune|confirm|all] [--ids ...] [--show
BUCKET]``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from benchmarks.quality.truth.corpus import Scenario, load, select
from kgmem.core.text import normalize_name
from kgmem.ingest.claims.reading import ClaimReader
from kgmem.ingest.extractors.local import extract_local
from kgmem.ingest.extractors.rewrite import speaker_label
from kgmem.ingest.gate.claim_rule import ClaimConflict, ClaimSkip, claim_conflict
from kgmem.ingest.gate.records import Neighbour
from kgmem.ingest.gate.replacement import says_replacement
from kgmem.ml.embedder import Embedder
from kgmem.ml.nlp import Nlp
from kgmem.records import Claim, Turn
from kgmem.settings import Settings
from kgmem.taxonomy.slots import family

END = datetime(2025, 6, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Reading:
    scenario: Scenario
    old: tuple[tuple[str, Claim | None], ...]  # (memory text, claim)
    new: tuple[tuple[str, Claim | None], ...]
    bucket: str


def _facts(
    nlp: Nlp, emb: Embedder, reader: ClaimReader, s: Scenario, key: str
) -> tuple[tuple[str, Claim | None], ...]:
    t = next(t for t in s.turns(END) if t.key == key)
    turn = Turn(text=t.text, role="user", speaker=s.speaker, at=t.at, turn_id=f"{s.id}.{key}")
    doc = nlp.pipeline()(t.text)
    facts = extract_local([turn], [doc]).facts
    vecs = emb.embed([f.content for f in facts]) if facts else []
    out = []
    for f, v in zip(facts, vecs, strict=True):
        names = frozenset(n for n in (normalize_name(e.name) for e in f.entities) if n)
        out.append((f.content, reader.read(f.content, v, speaker_label(s.speaker), names)))
    return tuple(out)


def bucket(
    old: Sequence[tuple[str, Claim | None]], new: Sequence[tuple[str, Claim | None]], floor: float
) -> str:
    olds = [c for _, c in old if c is not None]
    news = [c for _, c in new if c is not None]
    if not olds:
        return "no_old_claim"
    if not news:
        return "no_new_claim"
    holders = [
        Neighbour(memory_id=f"old{i}", content="", content_hash="", similarity=0.0, claim=c)
        for i, c in enumerate(olds)
    ]
    verdicts = [
        claim_conflict(c, holders, floor, replacing=says_replacement(text))
        for text, c in new
        if c is not None
    ]
    if any(isinstance(v, ClaimConflict) for v in verdicts):
        return "acts"
    if any(isinstance(v, ClaimSkip) for v in verdicts):
        return "low_confidence"
    pairs = [(o, n) for o in olds for n in news]
    if not any(o.subject == n.subject for o, n in pairs):
        return "other_subject"
    same_subj = [(o, n) for o, n in pairs if o.subject == n.subject]
    if not any(family(o.slot) == family(n.slot) for o, n in same_subj):
        return "other_slot"
    same_fam = [(o, n) for o, n in same_subj if family(o.slot) == family(n.slot)]
    if not any(o.slot == n.slot for o, n in same_fam):
        return "other_qualifier"
    return "no_change"


def read_all(scenarios: Sequence[Scenario], settings: Settings) -> list[Reading]:
    nlp, emb = Nlp(settings), Embedder(settings)
    reader = ClaimReader(emb, nlp)
    out = []
    for s in scenarios:
        old, new = _facts(nlp, emb, reader, s, "old"), _facts(nlp, emb, reader, s, "new")
        out.append(Reading(s, old, new, bucket(old, new, settings.claim_min_confidence)))
    return out


def _show(c: Claim | None) -> str:
    if c is None:
        return "-"
    return f"({c.subject} | {c.slot} | {c.value} | {c.polarity} | {c.confidence:.2f})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.quality.truth.claims")
    parser.add_argument("--half", choices=("tune", "confirm", "all"), default="tune")
    parser.add_argument("--ids", nargs="*", default=None)
    parser.add_argument("--show", nargs="*", default=None, help="print these buckets' cases")
    args = parser.parse_args(argv)
    half = None if args.half == "all" else args.half
    scenarios = select(load(), half=half, ids=tuple(args.ids or ()))
    readings = read_all(scenarios, Settings())
    for kind in ("change", "control"):
        rows = [r for r in readings if r.scenario.kind == kind]
        counts = Counter(r.bucket for r in rows)
        summary = ", ".join(f"{b} {n}" for b, n in counts.most_common())
        print(f"{kind} ({len(rows)}): {summary}")
    for r in readings:
        wanted = (r.bucket == "acts") == (r.scenario.kind == "change")
        if args.show is not None and (r.bucket in args.show or (not args.show and not wanted)):
            print(f"\n[{r.bucket}] {r.scenario.id} ({r.scenario.kind}, {r.scenario.style})")
            for side, facts in (("old", r.old), ("new", r.new)):
                for text, c in facts:
                    print(f"  {side}: {text}\n       {_show(c)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
