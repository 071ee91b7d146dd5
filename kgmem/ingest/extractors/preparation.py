"""The model half of a batch, done before the graph is asked anything about it: the signal scan
and observer filters, extraction (local spaCy engine, or the LLM by ``llm_level``, falling back
to local on an LLM error) and one embedder call for the facts and their entity names.

``prepare`` turns pending episodes into a ``Prepared`` batch (turns, skipped turns with their
reasons: the filters' or the extractor's, facts, ``Vectors``, and the report the stages ticked);
``screen`` is the filters' verdict on one turn (a turn of code or markup is read as its prose).
Models run in worker threads; nothing here reads or writes the graph, so a prepared batch can be
built ahead while the previous one commits.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, replace
from typing import Any

from kgmem.core.text import normalize_name
from kgmem.errors import LLMError
from kgmem.ingest.extractors.llm import extract_with_llm
from kgmem.ingest.extractors.local import LocalExtraction, extract_local
from kgmem.ingest.extractors.prose import STRUCTURAL, prose
from kgmem.ingest.extractors.scanner import scan
from kgmem.ingest.ingestor import Ingestor
from kgmem.ingest.reports import ExtractionReport
from kgmem.ingest.turns.episodes import turn_of
from kgmem.records import ExtractedFact, Turn, TurnSkip
from kgmem.taxonomy import SkipReason

log = logging.getLogger("kgmem.ingest")


SOFT_FILTERS = frozenset({"low_density"})


AUTO_LLM_BELOW = 0.40  # llm_level=auto: ask the LLM when local facts are speculative


@dataclass
class Prepared:
    """A batch's model work, done before the graph is asked anything about it."""

    episodes: list[dict[str, Any]]
    turns: list[Turn]
    skips: list[TurnSkip]
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
    skips: list[TurnSkip] = []
    for t in turns:
        screened = screen(t)
        if isinstance(screened, TurnSkip):
            skips.append(screened)
        else:
            kept.append(screened)
    rep.tick("signal_scan", t0)
    facts, unfruitful = await _extract(ing, kept, rep)
    skips += unfruitful
    rep.skips = list(skips)
    rep.skipped_turns = len(skips)
    vectors = await embed_inputs(ing, facts, rep)
    return Prepared(episodes, turns, skips, facts, vectors, rep)


def screen(turn: Turn) -> Turn | TurnSkip:
    """The observer filters' verdict on a turn: the turn to extract (its prose: code and markup
    cut out), or why it is skipped. A turn the filters reject only for code or markup is
    extracted from its prose when the prose passes them on its own."""
    reasons = _hard_reasons(turn.text, turn.role)
    text = prose(turn.text)
    if reasons and set(reasons) <= STRUCTURAL and text and not _hard_reasons(text, turn.role):
        reasons = ()
    if reasons:
        return TurnSkip(turn.turn_id or "", reasons)
    return turn if text == turn.text else replace(turn, text=text)


def _hard_reasons(text: str, role: str) -> tuple[str, ...]:
    verdict = scan(text, role).verdict
    # The density gate is advisory here: the regex density misses facts spaCy sees ("Oskar
    # plays the cello" scores 1), and the extractor drops real filler on its own parse.
    hard = [r for r in verdict.reasons if r not in SOFT_FILTERS]
    return () if verdict.keep or not hard else verdict.reasons


async def _extract(
    ing: Ingestor, turns: list[Turn], rep: ExtractionReport
) -> tuple[list[ExtractedFact], list[TurnSkip]]:
    """The batch's facts, and a skip for each kept turn that gave none."""
    if not turns:
        return [], []
    level = ing.settings.llm_level
    llm = ing.llm if ing.llm is not None and ing.llm.configured else None
    local: LocalExtraction | None = None
    if level != "always" or llm is None:
        local = await _local(ing, turns, rep)
        facts = local.facts
        uncertain = not facts or sum(f.confidence for f in facts) / len(facts) < AUTO_LLM_BELOW
        if llm is None or level == "off" or (level == "auto" and not uncertain):
            return facts, local.skips
    assert llm is not None
    t0 = time.perf_counter()
    try:
        facts = await extract_with_llm(llm, turns)
        rep.tick("llm", t0)
        rep.engine = "llm"
        # the LLM says nothing of why; a turn none of its facts cites is recorded all the same
        cited = {s for f in facts for s in f.source_turn_ids}
        reason = (SkipReason.NO_STATEMENT,)
        return facts, [TurnSkip(t.turn_id or "", reason) for t in turns if t.turn_id not in cited]
    except LLMError as exc:  # fall back to the local engine; the failure is logged, not hidden
        rep.tick("llm", t0)
        log.warning("LLM extraction failed (%s); using the local engine", exc.message)
        rep.engine = "local (llm fallback)"
        if local is None:
            local = await _local(ing, turns, rep)
        return local.facts, local.skips


async def _local(ing: Ingestor, turns: list[Turn], rep: ExtractionReport) -> LocalExtraction:
    """The local engine: spaCy parses in a worker thread, then the pure extractor."""
    t0 = time.perf_counter()
    docs = await asyncio.to_thread(lambda: list(ing.nlp.pipeline().pipe(t.text for t in turns)))
    t0 = rep.tick("spacy", t0)
    extraction = extract_local(turns, docs)
    rep.tick("extract_local", t0)
    return extraction


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
