"""The model half of a batch, done before the graph is asked anything about it: the signal scan
and observer filters, extraction (local spaCy engine, or the LLM by ``llm_level``, falling back
to local on an LLM error) and one embedder call for the facts and their entity names.

``prepare`` turns pending episodes into a ``Prepared`` batch (turns, skipped turns, facts,
``Vectors``, and the report the stages ticked). Models run in worker threads; nothing here reads
or writes the graph, so a prepared batch can be built ahead while the previous one commits.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

from kgmem.errors import LLMError
from kgmem.ingest.episodes import turn_of
from kgmem.ingest.ingestor import ExtractionReport, Ingestor
from kgmem.ingest.llm_extractor import extract_with_llm
from kgmem.ingest.local_extractor import extract_local
from kgmem.ingest.normalize import normalize_name
from kgmem.ingest.scanner import scan
from kgmem.records import ExtractedFact, Turn

log = logging.getLogger("kgmem.ingest")


SOFT_FILTERS = frozenset({"low_density"})


AUTO_LLM_BELOW = 0.40  # llm_level=auto: ask the LLM when local facts are speculative (seed 000)


@dataclass
class Prepared:
    """A batch's model work, done before the graph is asked anything about it."""

    episodes: list[dict[str, Any]]
    turns: list[Turn]
    skips: list[dict[str, Any]]
    facts: list[ExtractedFact]
    vectors: Vectors
    report: ExtractionReport


@dataclass(frozen=True)
class Vectors:
    facts: list[list[float]]
    names: dict[str, list[float]]


async def prepare(ing: Ingestor, episodes: list[dict[str, Any]]) -> Prepared:
    rep = ExtractionReport(episodes=len(episodes))
    t0 = time.perf_counter()
    turns = [turn_of(e) for e in episodes]
    kept: list[Turn] = []
    skips: list[dict[str, Any]] = []
    for t in turns:
        verdict = scan(t.text, t.role).verdict
        # The density gate is advisory here: the regex density misses facts spaCy sees ("Oskar
        # plays the cello" scores 1), and the extractor drops real filler on its own parse.
        hard = [r for r in verdict.reasons if r not in SOFT_FILTERS]
        if verdict.keep or not hard:
            kept.append(t)
        else:
            skips.append({"id": t.turn_id, "reasons": list(verdict.reasons)})
    rep.skipped_turns = len(skips)
    rep.tick("signal_scan", t0)
    facts = await _extract(ing, kept, rep)
    vectors = await embed_inputs(ing, facts, rep)
    return Prepared(episodes, turns, skips, facts, vectors, rep)


async def _extract(ing: Ingestor, turns: list[Turn], rep: ExtractionReport) -> list[ExtractedFact]:
    if not turns:
        return []
    level = ing.settings.llm_level
    llm = ing.llm if ing.llm is not None and ing.llm.configured else None
    local: list[ExtractedFact] | None = None
    if level != "always" or llm is None:
        local = await _local(ing, turns, rep)
        uncertain = not local or sum(f.confidence for f in local) / len(local) < AUTO_LLM_BELOW
        if llm is None or level == "off" or (level == "auto" and not uncertain):
            return local
    assert llm is not None
    t0 = time.perf_counter()
    try:
        facts = await extract_with_llm(llm, turns)
        rep.tick("llm", t0)
        rep.engine = "llm"
        return facts
    except LLMError as exc:  # fall back to the local engine; the failure is logged, not hidden
        rep.tick("llm", t0)
        log.warning("LLM extraction failed (%s); using the local engine", exc.message)
        rep.engine = "local (llm fallback)"
        if local is None:
            local = await _local(ing, turns, rep)
        return local


async def _local(ing: Ingestor, turns: list[Turn], rep: ExtractionReport) -> list[ExtractedFact]:
    """The local engine: spaCy parses in a worker thread, then the pure extractor."""
    t0 = time.perf_counter()
    docs = await asyncio.to_thread(lambda: list(ing.nlp.pipeline().pipe(t.text for t in turns)))
    t0 = rep.tick("spacy", t0)
    facts = extract_local(turns, docs)
    rep.tick("extract_local", t0)
    return facts


async def embed_inputs(ing: Ingestor, facts: list[ExtractedFact], rep: ExtractionReport) -> Vectors:
    """One embedder call for the facts and their entity names (entity resolution by embedding)."""
    t0 = time.perf_counter()
    surfaces = {normalize_name(m.name): m.name for f in facts for m in f.entities}
    surfaces.pop("", None)
    names = sorted(surfaces)
    texts = [f.content for f in facts] + [surfaces[n] for n in names]
    vectors = await asyncio.to_thread(ing.embedder.embed, texts) if texts else []
    rep.tick("embed", t0)
    return Vectors(vectors[: len(facts)], dict(zip(names, vectors[len(facts) :], strict=True)))
