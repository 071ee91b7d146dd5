"""Sentence-level stages of the local extractor: filler detection, atomic splitting, rendering.

``filler_reason`` says why a statement carries nothing to remember: greetings, acknowledgements,
imperatives and one-word reactions (a statement with a number, a named entity or a classified
signal is never filler; questions and requests are cut off before, by ``requests.separate``);
``split_atomic`` splits a sentence at "and" / ";" into atomic facts when the right side is a
clause of its own, or a verb phrase naming other entities than the left (the atomic facts;
an implicit "I" dropped by chat is put back); ``render`` writes a piece back as text with the
pronoun replacements of coreference. Pure functions over spaCy tokens; no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from kgmem.core.text import word_set
from kgmem.ingest.extractors.classification import CLASSIFIED_KINDS
from kgmem.ingest.extractors.coreference import (
    FILLER_WORDS,
    NOMINAL,
    SUBJECT_DEPS,
    TurnContext,
    is_proper,
    propn_chunk,
    same_person,
)
from kgmem.ingest.extractors.rewrite import FIRST_PERSON
from kgmem.ingest.signals.records import SignalLevel, SignalScan
from kgmem.taxonomy import SkipReason

_FINITE = frozenset({"VBZ", "VBP", "VBD", "MD"})
_INTERJECTIONS = word_set(
    "wow oh ooh hey hi hello well yeah yes yep ok okay lol haha omg aw aww ah hmm so"
)
# Verbs that open a sentence whose "I" was dropped ("Love that painting!", "Gonna continue...").
_SUBJECTLESS = word_set(
    "love like hate enjoy miss want need hope think feel wish prefer gon wan got"
    # a past tense spelt like the base form, rarely asked of an assistant: "Hit 65,000 words
    # today", "Quit my job!"
    " hit quit"
)
_PAST_AS_BASE = word_set("hit quit")
# participles that say how one is, not what one did: "Stuck in traffic" is "I'm stuck"
_STATES = word_set(
    "stuck exhausted tired thrilled excited stressed done bored obsessed confused worried scared"
    " pleased delighted amazed shocked surprised devastated overwhelmed swamped hooked blessed"
    " engaged"
)
_OPENING_ADVERBS = word_set("just finally recently also already actually literally officially")
_FILLER_RE = re.compile(
    r"(?:(?:hey|hi|hello|yo|oh|wow|aw+|ah|well|yeah|yes|yep|no|nope|ok|okay|sure|cool|nice|great"
    r"|awesome|lol|haha|hmm|thanks|thank you|thx|congrats|congratulations|bye|goodbye|cheers"
    r"|good (?:morning|night|evening|luck)|(?:good|nice|great) to (?:see|hear from|meet) you"
    r"|how are you|how have you been|what'?s up|take care|see you(?: soon| later)?|talk soon"
    r"|sounds good|me too|same here|no problem|no worries|you'?re welcome|of course|totally"
    r"|exactly|right|i see|got it|long time no see|you bet|(?:i )?(?:totally |completely )?agree"
    r"|(?:i )?(?:could|can)n't agree more|(?:i )?(?:really )?appreciate (?:it|that|you)"
    r"|hope (?:you(?:'re| are)|all is|everything is|things are)"
    r"(?: doing)? (?:ok|okay|well|good|great|fine))\s*)+",
)


@dataclass
class Piece:
    tokens: list[Any]
    lead: str = ""  # an implicit subject put back ("I ")
    end: str = ""  # end punctuation for a left half


def filler_reason(
    sent: Any, sig: SignalScan, ctx: TurnContext, resolved: bool
) -> SkipReason | None:
    """Why a statement (a sentence, or the part of one that states) carries nothing to remember:
    greetings, acknowledgements, imperatives and one-word reactions are ``FILLER``, text without
    a word is ``NO_WORDS``; None when it carries something. A statement with a number, a named
    entity (``resolved``: a pronoun that names one), or a classified signal is never filler."""
    if not any(t.is_alpha for t in sent):
        return SkipReason.NO_WORDS
    if resolved or any(t.like_num for t in sent) or sig.level is SignalLevel.HIGH:
        return None
    return SkipReason.FILLER if _is_filler(sent, sig, ctx) else None


def _is_filler(sent: Any, sig: SignalScan, ctx: TurnContext) -> bool:
    # the sentence without names and punctuation: "Hey Gina, hope you're doing ok!" → a greeting
    words = (
        " " if t.is_punct or t.ent_type_ == "PERSON" or t.lower_ in ctx.speakers else t.lower_
        for t in sent
    )
    bare = " ".join(re.sub(r"[^\w\s']", " ", "".join(w + " " for w in words)).split())
    bare = bare.replace(" '", "'").replace(" n't", "n't")  # spaCy splits "you're", "don't"
    if not bare or _FILLER_RE.fullmatch(bare):
        return True
    if any(s.kind in CLASSIFIED_KINDS and s.level >= SignalLevel.MEDIUM for s in sig.signals):
        return False
    if any(is_proper(ent) and not same_person(ent.text, ctx.known) for ent in sent.ents):
        return False
    root = sent.root
    if (
        root.tag_ == "VB"
        and root.lower_ not in _SUBJECTLESS
        and not any(c.dep_ in SUBJECT_DEPS for c in root.children)
    ):
        return True  # an imperative ("Take a look at this") asks, it does not state
    content = [
        t
        for t in sent
        if t.pos_ in ("NOUN", "PROPN", "VERB", "ADJ")
        and t.is_alpha
        and not t.is_stop
        and t.lower_ not in FILLER_WORDS
        and not same_person(t.text, ctx.known)
    ]
    # about a participant ("I'm vegan", "You'd be a great counselor"): one content word will do
    you = ("you", "your") if ctx.addressee else ()
    personal = any(t.lower_ in FIRST_PERSON or t.lower_ in you for t in sent)
    personal = personal or _drops_i([t for t in sent if not t.is_punct] or list(sent)) is not None
    return len(content) < (1 if personal else 2)


_UNRESOLVED = word_set("it this that there they them these those he she him her")


def _strip_interjections(tokens: list[Any]) -> list[Any]:
    """Drop leading "Wow," / "Oh!" / "Yeah -": filler words the rewriting removes."""
    while (
        len(tokens) > 1
        and (tokens[0].pos_ == "INTJ" or tokens[0].lower_ in _INTERJECTIONS)
        and tokens[1].is_punct
    ):
        tokens = tokens[2:]
    return tokens


def _opens_clause(tokens: list[Any], k: int, sub_text: dict[int, str]) -> str | None:
    """What ``tokens[k:]`` opens with: "clause" (subject + finite verb), "vp" (a finite verb
    without subject), or None. A subject that is an unresolved pronoun is no clause of its own:
    "... and it was great" leans on the left half, so the halves stay together."""
    n = len(tokens)
    j = k
    while j < n and (tokens[j].pos_ == "ADV" or tokens[j].lower_ in ("then", "also")):
        j += 1
    if j < n and tokens[j].pos_ == "ADP" and tokens[j].dep_ == "prep":
        # a time or place said first: "..., and on Monday I start at Diageo"
        end = tokens[j].right_edge.i
        while j < n and tokens[j].i <= end:
            j += 1
        if j < n and tokens[j].text == ",":
            j += 1
    if j >= n:
        return None
    if tokens[j].pos_ in ("VERB", "AUX") and (tokens[j].tag_ in _FINITE or tokens[j].tag_ == "VB"):
        return "vp"  # "... and live in Seattle" (the parser tags a conjoined present as VB)
    start = j
    while j < n and (
        tokens[j].pos_ in ("DET", "PRON", "PROPN", "NOUN", "ADJ", "NUM") or tokens[j].tag_ == "POS"
    ):
        if tokens[j].tag_ in ("WDT", "WP"):
            return None  # "and which ...": a relative clause
        j += 1
    subject = tokens[start:j]
    while j < n and tokens[j].pos_ == "ADV":
        j += 1
    if (
        not subject
        or j >= n
        or tokens[j].pos_ not in ("VERB", "AUX")
        or tokens[j].tag_ not in _FINITE
    ):
        return None
    if len(subject) == 1 and subject[0].lower_ in _UNRESOLVED and subject[0].i not in sub_text:
        return None
    if not any(t.pos_ in ("VERB", "NOUN", "PROPN", "ADJ", "NUM") for t in tokens[j + 1 :]):
        return None  # an ellipsis ("... and others don't") says nothing on its own
    if not any(t.pos_ in NOMINAL for t in subject):
        return None
    return "clause"


def _names_in(tokens: list[Any]) -> set[str]:
    return {name.lower() for t in tokens if (name := propn_chunk(t))}


def _in_name(tokens: list[Any], k: int) -> bool:
    """The comma at ``k`` sits inside one date or place ("May 15, 2024", "Austin, Texas"), so
    it separates no list items."""
    if tokens[k].ent_type_:
        return True
    before, after = tokens[k - 1] if k else None, tokens[k + 1] if k + 1 < len(tokens) else None
    return (
        before is not None
        and after is not None
        and before.ent_type_ in ("GPE", "LOC", "DATE")
        and before.ent_type_ == after.ent_type_
    )


def _drops_i(tokens: list[Any]) -> Any | None:
    """The opening verb of a sentence whose "I" chat dropped ("Love that painting!", "Just got
    the Pixel 8", "Made partner!"), or None."""
    first = tokens[0]
    if first.lower_ in _OPENING_ADVERBS and len(tokens) > 1:
        first = tokens[1]  # "Just got the Pixel 8": the dropped "I" goes before the adverb
    if any(c.dep_ in SUBJECT_DEPS or c.dep_ == "expl" for c in first.children):
        return None
    if first.tag_ == "VBD" or (first.tag_ in ("VB", "VBP", "NN") and first.lower_ in _SUBJECTLESS):
        nxt = first.nbor() if first.i + 1 < len(first.doc) else None
        if first.lower_ in _PAST_AS_BASE and nxt is not None and nxt.pos_ == "PRON":
            return None  # "Hit me up when you're free": asked, not done
        return first
    # "Made partner!", "Sold the car!": the small model often tags an opening past tense as a
    # participle; with no subject and no agent ("Made by my grandma") it is the speaker's news
    if first.tag_ == "VBN" and not any(t.dep_ in (*SUBJECT_DEPS, "agent") for t in tokens):
        return first
    return None


def split_atomic(tokens: list[Any], sub_text: dict[int, str]) -> list[Piece]:
    """Atomic facts: split at "and" / ", and" / ";" when the right side is a clause of its own,
    or a verb phrase naming other entities than the left (its subject is then copied over)."""
    tokens = _strip_interjections(tokens)
    if not tokens:
        return []
    final = tokens[-1].text if tokens[-1].text in (".", "!", "?") else "."
    lead = ""
    if (first := _drops_i(tokens)) is not None:
        # "Love that painting!" / "Gonna continue my edu": chat drops the "I"; put it back
        lead = "I'm " if first.lower_ == "gon" or first.lower_ in _STATES else "I "
    pieces: list[Piece] = []
    prefix: list[Any] = []
    piece_lead = lead
    start = 0
    for b, tok in enumerate(tokens):
        if b <= start or not (tok.lower_ == "and" or tok.text == ";"):
            continue
        left = prefix + tokens[start:b]
        while left and left[-1].is_punct:
            left = left[:-1]
        # the left half must end in a clause: in "me and my team had ..." or "friends, family
        # and mentors are ..." the "and" joins nouns, not clauses
        tail = left
        for k in range(len(left) - 1, -1, -1):
            if left[k].lower_ == "and" or (left[k].text in (",", ";") and not _in_name(left, k)):
                tail = left[k + 1 :]
                break
        if not any(t.pos_ in ("VERB", "AUX") for t in tail):
            continue
        kind = _opens_clause(tokens, b + 1, sub_text)
        new_prefix: list[Any] = []
        if kind == "vp":
            # a shared subject is copied only when the halves are about different things
            names_l, names_r = _names_in(left), _names_in(tokens[b + 1 :])
            subj = next((t for t in left if t.dep_ in SUBJECT_DEPS), None)
            if not names_l or not names_r or names_l & names_r or (subj is None and not lead):
                continue
            if subj is not None:
                in_left = {t.i for t in left}
                new_prefix = sorted((t for t in subj.subtree if t.i in in_left), key=lambda t: t.i)
        elif kind != "clause":
            continue
        pieces.append(Piece(left, piece_lead, final))
        prefix, start = new_prefix, b + 1
        piece_lead = lead if kind == "vp" and not new_prefix else ""
    rest = prefix + tokens[start:]
    if any(t.is_alpha for t in rest):
        pieces.append(Piece(rest, piece_lead))
    return pieces


def render(piece: Piece, sub_text: dict[int, str]) -> str:
    parts = [piece.lead]
    for n, tok in enumerate(piece.tokens):
        text = sub_text.get(tok.i, tok.text)
        if n == 0 and piece.lead and tok.pos_ != "PROPN" and text[:1].isupper():
            text = text[0].lower() + text[1:]
        gap = tok.whitespace_
        if not gap and n + 1 < len(piece.tokens) and piece.tokens[n + 1].i != tok.i + 1:
            gap = " "  # a subject copied over from "I've ..." meets the verb of another clause
        parts.append(text + gap)
    text = "".join(parts).strip().rstrip(",;:-– ").strip()
    if piece.end and text and text[-1] not in ".!?":
        text += piece.end
    return text[:1].upper() + text[1:]
