"""The local (no-LLM) extractor: the Formation heuristics over spaCy parses.

``extract_local(turns, docs)`` takes a batch of turns and their parsed spaCy docs (one doc per
turn, same order; the orchestrator runs ``nlp.pipe``) and returns atomic, standalone
``ExtractedFact``s, and a ``TurnSkip`` with the reasons for each turn that gave none. It is pure
given the docs: no I/O, no model call, no clock. Per sentence it separates what is stated from
what is asked (``requests``: "I've set a goal of 3 series by May, do you think that's doable?"
keeps the goal; a request for help with something named becomes "<speaker> wants help to ..."),
drops filler, resolves he/she/it/they to the last fitting entity named in the
batch (coreference-lite), splits on "and"/";" into atomic facts, rewrites first and second person
into third person with the speakers' names (``rewrite.third_person``, after dropping discourse
fillers such as "Actually,"), appends ISO dates to
relative ones against the *turn's* timestamp, sets ``valid_from`` and the foresight
``valid_until``, and attaches a category with a base confidence (the observer table, boosted
by the rule in ``classification.confidence``), an emotion reading, entity mentions and typed entity
relations found by dependency patterns. Names, numbers and dates of the source are never dropped.
The sentence stages live beside it: ``coreference`` (who a token names), ``sentences`` (filler,
atomic splitting, rendering) and ``relation_patterns`` (typed relations); this module assembles
the facts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from kgmem.core.dates.temporal import foresight, rewrite_relative, valid_from
from kgmem.errors import InvalidInput
from kgmem.ingest.extractors.classification import classify, confidence, is_hedged
from kgmem.ingest.extractors.coreference import (
    Antecedent,
    CorefState,
    TurnContext,
    corefer,
    is_proper,
    same_person,
    strip_the,
    turn_context,
)
from kgmem.ingest.extractors.emotion import detect_emotion
from kgmem.ingest.extractors.relation_patterns import KIN_TYPES, sentence_relations
from kgmem.ingest.extractors.requests import Segment, asked, intent, separate, topical
from kgmem.ingest.extractors.rewrite import drop_opener, has_first_person, third_person
from kgmem.ingest.extractors.scanner import scan
from kgmem.ingest.extractors.sentences import Piece, filler_reason, render, split_atomic
from kgmem.ingest.signals.gazetteer import MAX_ENTITIES
from kgmem.ingest.signals.observer import CONVERSATIONAL_ROLES
from kgmem.ingest.signals.records import SignalKind, SignalLevel
from kgmem.ml.nlp import LABEL_TO_TYPE
from kgmem.records import EntityMention, ExtractedFact, RelationMention, Turn, TurnSkip
from kgmem.taxonomy import EntityType, RelationType, SkipReason

_DIGITS_RE = re.compile(r"\d")

R = RelationType
HIGH = SignalLevel.HIGH

# What each end of a relation is, for names the NER left unlabelled ("Python", "Jon is my
# friend"); relations not listed join two persons.
E = EntityType
_ENDPOINT_TYPES: dict[RelationType, tuple[EntityType, EntityType]] = {
    R.WORKS_AT: (E.PERSON, E.ORGANIZATION),
    R.MEMBER_OF: (E.PERSON, E.ORGANIZATION),
    R.FOUNDED: (E.PERSON, E.ORGANIZATION),
    R.LIVES_IN: (E.PERSON, E.LOCATION),
    R.USES: (E.PERSON, E.PRODUCT),
}


def _entity_type(label: str) -> str:
    return LABEL_TO_TYPE.get(label, EntityType.OTHER.value)


def _mentions(
    piece: Piece,
    ctx: TurnContext,
    subs: dict[int, Antecedent],
    relations: list[RelationMention],
    about_speaker: bool,
    about_addressee: bool,
) -> tuple[list[tuple[str, str]], int]:
    """(name, type) of the entities a piece names, and how many of them the text itself names."""
    found: dict[str, tuple[str, str]] = {}
    ids = {t.i for t in piece.tokens}
    if piece.tokens:
        for ent in piece.tokens[0].doc.ents:
            if is_proper(ent) and ent.start in ids:
                name = strip_the(ent.text.strip())
                # the small NER model sometimes calls a speaker an ORG; a speaker is a person
                etype = "person" if name.lower() in ctx.speakers else LABEL_TO_TYPE[ent.label_]
                found.setdefault(name.lower(), (name, etype))
    named = len(found)
    for i in sorted(ids & subs.keys()):
        ante = subs[i]
        if ante.named:
            found.setdefault(ante.name.lower(), (ante.name, _entity_type(ante.label)))
    if about_speaker:
        found.setdefault(ctx.entity.lower(), (ctx.entity, EntityType.PERSON.value))
    if about_addressee and ctx.addressee_entity:
        name = ctx.addressee_entity
        found.setdefault(name.lower(), (name, EntityType.PERSON.value))
    for rel in relations:
        types = _ENDPOINT_TYPES.get(R(rel.type), (EntityType.PERSON, EntityType.PERSON))
        for name, etype in zip((rel.source, rel.target), types, strict=True):
            found.setdefault(name.lower(), (name, etype.value))
    return list(found.values())[:MAX_ENTITIES], named


def _names(text: str, name: str) -> bool:
    """Whether ``text`` names ``name`` as a word of its own ("Tim" is not in "time")."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE) is not None


_YOU_RE = re.compile(r"\b(?:you|your|yours|yourself)\b", re.IGNORECASE)


def _fact(
    piece: Piece,
    ctx: TurnContext,
    subs: dict[int, Antecedent],
    sub_text: dict[int, str],
    rels: list[tuple[int, RelationMention]],
) -> ExtractedFact | None:
    raw = render(piece, sub_text)
    if sum(c.isalpha() for c in raw) < 2:
        return None
    turn = ctx.turn
    content = third_person(drop_opener(raw), ctx.label, role=turn.role, addressee=ctx.addressee)
    content = content[:1].upper() + content[1:]
    body = {t.i for t in piece.tokens}
    relations = list(dict.fromkeys(r for at, r in rels if at in body))
    first_hand = bool(piece.lead) or has_first_person(raw)
    to_addressee = ctx.addressee is not None and _YOU_RE.search(raw) is not None
    mentions, named = _mentions(piece, ctx, subs, relations, first_hand, to_addressee)
    if not any(_names(content, name) for name in [ctx.label, *(n for n, _ in mentions)]):
        # nothing in it says whose or what it is about: keep it as the speaker's statement
        content = f"{ctx.label} said: {content}"
        mentions, named = _mentions(piece, ctx, subs, relations, True, to_addressee)
    start = until = None
    if turn.at is not None:
        content = rewrite_relative(content, turn.at)
        start, until = valid_from(raw, turn.at), foresight(raw, turn.at)
    sig = scan(raw, turn.role)
    category, bonus = classify(raw, sig, any(R(r.type) in KIN_TYPES for r in relations))
    emotion = detect_emotion(raw)
    conf = confidence(
        category,
        bonus,
        named_entities=named,
        first_hand=first_hand,
        anchored=_DIGITS_RE.search(raw) is not None or SignalKind.TEMPORAL in sig.kinds,
        relations=len(relations),
        hedged=is_hedged(raw),
        role=turn.role,
    )
    entities = tuple(
        EntityMention(name, etype, at, at + len(name) if at >= 0 else -1)
        for name, etype in mentions
        for at in (content.find(name),)
    )
    return ExtractedFact(
        content=content,
        category=category.value,
        confidence=conf,
        entities=entities,
        relations=tuple(relations),
        valid_from=start,
        valid_until=until,
        valence=emotion.valence,
        arousal=emotion.arousal,
        emotion=emotion.category,
        source_turn_ids=(turn.turn_id,) if turn.turn_id else (),
        tags=tuple(sorted(k.value for k in sig.kinds)),
    )


@dataclass(frozen=True)
class LocalExtraction:
    """The facts of a batch, and why each turn that gave none gave none."""

    facts: list[ExtractedFact]
    skips: list[TurnSkip]


def extract_local(turns: Sequence[Turn], docs: Sequence[Any]) -> LocalExtraction:
    """Atomic standalone facts from a batch of turns, given each turn's parsed spaCy doc.

    Turns are read in order and coreference state carries across them, so "He" in one turn can
    name the "Jon" of an earlier one. System and tool turns are skipped. Without a timestamp on a
    turn its relative dates stay unresolved and ``valid_from``/``valid_until`` stay None. A fact
    said again in a later turn of the batch is kept once, with both turns as its sources; a
    conversational turn that gives no fact gets a ``TurnSkip`` with its sentences' reasons.
    """
    if len(turns) != len(docs):
        raise InvalidInput(f"got {len(turns)} turns but {len(docs)} parsed docs; pass one per turn")
    state = CorefState()
    facts: list[ExtractedFact] = []
    skips: list[TurnSkip] = []
    seen: dict[str, int] = {}
    for i, (turn, doc) in enumerate(zip(turns, docs, strict=True)):
        if turn.role.strip().lower() not in CONVERSATIONAL_ROLES:
            continue
        ctx = turn_context(turns, i)
        reasons: set[SkipReason] = set()
        gave = False
        for sent in doc.sents:
            subs, sub_text = corefer(sent, state, ctx)
            rels = sentence_relations(sent, ctx, subs)
            for piece in _pieces(sent, ctx, subs, sub_text, reasons):
                fact = _fact(piece, ctx, subs, sub_text, rels)
                if fact is None:
                    reasons.add(SkipReason.FILLER)  # too short to stand alone
                    continue
                gave = True
                key = fact.content.lower()
                if key not in seen:
                    seen[key] = len(facts)
                    facts.append(fact)
                else:  # said again: the turn is one more source of the same fact
                    same = facts[seen[key]]
                    ids = tuple(dict.fromkeys(same.source_turn_ids + fact.source_turn_ids))
                    facts[seen[key]] = replace(same, source_turn_ids=ids)
        if not gave:
            why = tuple(sorted(reasons)) or (SkipReason.NO_WORDS,)
            skips.append(TurnSkip(turn.turn_id or "", why))
    return LocalExtraction(facts, skips)


def _full_stop(piece: Piece) -> Piece:
    tokens = piece.tokens[:-1] if piece.tokens and piece.tokens[-1].text == "?" else piece.tokens
    return Piece(tokens, piece.lead, ".")


def _specific(span: Any, ctx: TurnContext) -> bool:
    """A number in digits ("one" is rarely one), or a name other than the speakers'."""
    return any(c.isdigit() for t in span for c in t.text) or any(
        is_proper(ent) and not same_person(ent.text, ctx.known) for ent in span.ents
    )


def _pieces(
    sent: Any,
    ctx: TurnContext,
    subs: dict[int, Antecedent],
    sub_text: dict[int, str],
    reasons: set[SkipReason],
) -> list[Piece]:
    """The atomic pieces a sentence states, with what its requests say the speaker wants; adds
    to ``reasons`` why a part of it gave nothing."""
    segments = separate(sent)
    told = all(seg.request for seg in segments) and scan(sent.text, ctx.turn.role).level is HIGH
    if told:
        segments = [Segment(tuple(sent), False)]  # "Did you know I moved to Denver?" tells
    doc = sent.doc
    pieces: list[Piece] = []
    for seg in segments:
        if seg.request:
            wanted = intent(seg)
            if wanted is not None:
                how, tokens = wanted
                pieces.append(Piece(tokens, f"I want help {how} ", "."))
            elif _specific(doc[seg.tokens[0].i : seg.tokens[-1].i + 1], ctx) or (
                ctx.addressee_entity == "Assistant" and topical(seg)
            ):
                # a question about something named or counted says what the speaker is on
                # ("what if the response time exceeds 300ms?"), and so does one that asks an
                # assistant about a thing of the work ("what if the debounce delay isn't
                # enough?"): kept as what they asked
                pieces.append(Piece(asked(seg), "I asked: ", "?"))
            else:
                reasons.add(SkipReason.QUESTION)
            continue
        span = doc[seg.tokens[0].i : seg.tokens[-1].i + 1]
        resolved = any(subs[t.i].named for t in span if t.i in subs)
        reason = filler_reason(span, scan(span.text, ctx.turn.role), ctx, resolved)
        if reason is not None:
            reasons.add(reason)
            continue
        stated = split_atomic(list(span), sub_text)
        if not told and (span.end < sent.end or span[-1].text == "?"):
            # cut off before a request, or a declarative question: it states, with a full stop
            stated = [_full_stop(p) for p in stated]
        pieces += stated
    return pieces
