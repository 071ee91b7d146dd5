"""Who a token names, for the local extractor: the turn's speaker context and coreference-lite.

``turn_context`` says who speaks a turn and whom "you" means there; ``corefer`` resolves a
sentence's he/she/it/they to the last fitting entity named in the batch (he/she up to three
sentences back, it/they only the previous one; never the speaker or the addressee), records the
sentence's own named entities and "my sister"-style phrases as antecedents, and returns the
replacement text per token; ``name_of`` gives the entity a token stands for. Pure functions over
spaCy tokens and a ``CorefState`` the caller carries across the batch; no I/O, no model call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kgmem.core.text import word_set
from kgmem.ingest.extractors.classification import KIN_GENDER
from kgmem.ingest.extractors.emotion import detect_emotion
from kgmem.ingest.extractors.rewrite import speaker_label, third_person
from kgmem.ml.nlp import LABEL_TO_TYPE
from kgmem.records import Turn

SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
NOMINAL = frozenset({"PROPN", "PRON", "NOUN"})
FILLER_WORDS = word_set(
    """wow cool awesome great good nice amazing lovely glad thanks thank congrats see hear sound
    sounds lol haha yeah yes ok okay sure hey hi hello bye sorry"""
)
_CLITICS = {"'s": " is", "'re": " are", "'ve": " have", "'ll": " will", "'d": " would", "'m": " am"}
_COREF_WINDOW = 3  # sentences back a he/she may reach; it/they reach only the previous one


# --- conversation state ------------------------------------------------------------------------


@dataclass(frozen=True)
class Antecedent:
    name: str  # as it should appear in a fact ("Jon", "Caroline's sister")
    label: str  # spaCy label, or "KIN" for a possessed kin noun
    gender: str | None
    sentence: int
    named: bool  # a named entity (may become an entity mention / relation end)


@dataclass
class TurnContext:
    """What a sentence needs to know about its turn."""

    turn: Turn
    label: str  # the speaker as a fact subject ("Caroline", "The user")
    entity: str  # the speaker as an entity name ("Caroline", "User")
    addressee: str | None  # who "you" is, as text
    addressee_entity: str | None
    known: frozenset[str]  # lower-cased names of speaker and addressee (never antecedents)
    speakers: frozenset[str]  # lower-cased names of everyone speaking in the batch (persons)


@dataclass
class CorefState:
    antecedents: list[Antecedent] = field(default_factory=list)
    sentence: int = 0


def _role_entity(role: str) -> str:
    return "Assistant" if role == "assistant" else "User"


def same_person(name: str, known: frozenset[str]) -> bool:
    low = name.lower()
    return any(low == k or k.startswith(low) or low.startswith(k) for k in known if k)


def turn_context(turns: Sequence[Turn], i: int) -> TurnContext:
    """Who speaks turn ``i`` and whom "you" means there.

    A named speaker talks to the nearest other named speaker (looking back first), as in a
    dialogue. Failing that, and always for an unnamed speaker, a user talks to the assistant and
    the assistant to the user (by name when the batch gives one).
    """
    turn = turns[i]
    role = turn.role.strip().lower()
    label = speaker_label(turn.speaker, role)
    entity = (turn.speaker or "").strip()
    addressee: str | None = None
    addressee_entity: str | None = None
    if entity:
        for j in (*range(i - 1, -1, -1), *range(i + 1, len(turns))):
            other = (turns[j].speaker or "").strip()
            if other and other != entity:
                addressee = addressee_entity = other
                break
    other_role = "assistant" if role == "user" else "user"
    if addressee is None and (
        not entity or any(t.role.strip().lower() == other_role for t in turns)
    ):
        named = next((t.speaker for t in turns if t.role == other_role and t.speaker), None)
        addressee = named or speaker_label(None, other_role)
        addressee_entity = named or _role_entity(other_role)
    entity = entity or _role_entity(role)
    known = frozenset(n.lower() for n in (entity, addressee or "") if n)
    speakers = frozenset((t.speaker or "").strip().lower() for t in turns) - {""}
    return TurnContext(turn, label, entity, addressee, addressee_entity, known, speakers | known)


# --- coreference-lite ------------------------------------------------------------------------


def strip_the(text: str) -> str:
    return text[4:] if text.startswith("the ") else text


def is_proper(ent: Any) -> bool:
    """A named entity worth keeping: a label kgmem maps, and a capital or digit in its text. The
    small model sometimes tags plain phrases ("kids & work") or a capitalised feeling word that
    opens a sentence ("Cozy and inviting", "Glad you like it"); those are no names."""
    if ent.label_ not in LABEL_TO_TYPE or not any(c.isupper() or c.isdigit() for c in ent.text):
        return False
    if len(ent) == 1 and ent.start == ent.sent.start:
        return ent.text.lower() not in FILLER_WORDS and detect_emotion(ent.text).arousal == 0
    return True


def propn_chunk(tok: Any) -> str | None:
    """The name a token belongs to: its entity's text, or its run of proper nouns."""
    if tok.ent_type_ and tok.ent_iob_ != "O":
        for ent in tok.doc.ents:
            if ent.start <= tok.i < ent.end and is_proper(ent):
                return strip_the(ent.text.strip())
    if tok.pos_ != "PROPN":
        return None
    doc, a, b = tok.doc, tok.i, tok.i
    while a > 0 and doc[a - 1].pos_ == "PROPN":
        a -= 1
    while b + 1 < len(doc) and doc[b + 1].pos_ == "PROPN":
        b += 1
    return str(doc[a : b + 1].text)


def kin_noun(tok: Any) -> str | None:
    low = tok.lower_ if tok.lower_ in KIN_GENDER else tok.lemma_.lower()  # "sisters" → sister
    return low if tok.pos_ == "NOUN" and low in KIN_GENDER else None


def possessor(tok: Any, ctx: TurnContext, subs: dict[int, Antecedent]) -> str | None:
    """The entity name owning a kin noun ("my" → the speaker, "Jon's" → Jon)."""
    for child in tok.children:
        if child.dep_ == "poss":
            return name_of(child, ctx, subs)
    return None


def kin_name(tok: Any) -> str | None:
    """The named person right after a kin noun ("my friend Jon", "my sister, Anna,")."""
    doc = tok.doc
    j = tok.i + 1
    if j < len(doc) and doc[j].text == ",":
        j += 1
    if j < len(doc) and doc[j].pos_ == "PROPN":
        return propn_chunk(doc[j])
    for child in tok.children:
        if child.dep_ == "appos" and child.pos_ == "PROPN":
            return propn_chunk(child)
    return None


def name_of(tok: Any, ctx: TurnContext, subs: dict[int, Antecedent]) -> str | None:
    """The entity a token stands for, when it names one; None for anything unnamed."""
    low = tok.lower_
    if tok.i in subs:
        return subs[tok.i].name if subs[tok.i].named else None
    if low in ("i", "me", "my", "mine", "myself"):
        return ctx.entity
    if low in ("you", "your", "yours") and ctx.addressee_entity:
        return ctx.addressee_entity
    if kin_noun(tok):
        return kin_name(tok)
    return propn_chunk(tok)


_HE, _SHE = frozenset({"he", "him", "his"}), frozenset({"she", "her", "hers"})
_IT, _THEY = frozenset({"it", "its"}), frozenset({"they", "them", "their", "theirs"})
_POSSESSIVE_PRONOUNS = frozenset({"his", "hers", "its", "their", "theirs"})


_WEATHER_TIME = frozenset({"rain", "snow", "seem", "appear", "take", "get", "feel", "look"})


def _pleonastic(tok: Any) -> bool:
    """An "it" that refers to nothing: "it's raining", "it seems that...", "it's hard to say"."""
    head = tok.head
    if tok.dep_ != "nsubj":
        return bool(tok.dep_ == "expl")
    if head.lemma_ in _WEATHER_TIME:
        return True
    late = [c for c in head.children if c.i > head.i]
    # "it seems that ...", "it is hard to say": the real subject is the clause at the end
    return any(
        c.dep_ in ("xcomp", "ccomp")
        or (c.dep_ == "acomp" and any(g.dep_ in ("xcomp", "ccomp") for g in c.children))
        for c in late
    )


def _resolve(tok: Any, state: CorefState, ctx: TurnContext) -> Antecedent | None:
    low = tok.lower_
    for ante in reversed(state.antecedents):
        age = state.sentence - ante.sentence
        if age > _COREF_WINDOW:
            break
        person = ante.label in ("PERSON", "KIN")
        if low in _HE | _SHE:
            if not person or ante.gender == ("f" if low in _HE else "m"):
                continue
            if ante.named and same_person(ante.name, ctx.known):
                continue  # "she" is neither the speaker ("I") nor the addressee ("you")
            return ante
        if low in _IT and not person and age <= 1:
            if ante.label != "NORP":
                return None if _pleonastic(tok) else ante
            if age == 0:
                # "stopped learning German (tagged a people), couldn't keep it up": the nearer
                # word may be what "it" is, so no older thing is
                return None
        if low in _THEY and age <= 1 and not person:
            if ante.label == "ORG":
                return ante
            if age == 0:
                # a thing named in the pronoun's own sentence stands nearer than any group
                # before it: "obsessed with Fontaines D.C. (tagged a place), they're my
                # favourite band" must not reach back to the band named the turn before
                return None
    return None


def corefer(
    sent: Any, state: CorefState, ctx: TurnContext
) -> tuple[dict[int, Antecedent], dict[int, str]]:
    """Resolve the sentence's pronouns and record its antecedents; returns (antecedent by
    token, replacement text by token)."""
    subs: dict[int, Antecedent] = {}
    text: dict[int, str] = {}
    ent_end = {ent.end - 1: ent for ent in sent.ents if is_proper(ent)}
    for tok in sent:
        low = tok.lower_
        if tok.pos_ == "PRON" and low in _HE | _SHE | _IT | _THEY:
            ante = _resolve(tok, state, ctx)
            if ante is not None:
                subs[tok.i] = ante
                possessive = low in _POSSESSIVE_PRONOUNS or (low == "her" and tok.tag_ == "PRP$")
                text[tok.i] = f"{ante.name}'s" if possessive else ante.name
                nxt = tok.nbor() if tok.i + 1 < len(tok.doc) else None
                if nxt is not None and nxt.lower_.replace("’", "'") in _CLITICS:
                    clitic = nxt.lower_.replace("’", "'")
                    has = nxt.lemma_ == "have" and clitic == "'s"  # "he's been" is "he has"
                    text[nxt.i] = " has" if has else _CLITICS[clitic]
        if tok.i in ent_end:
            ent = ent_end[tok.i]
            if ent.root.dep_ not in ("compound", "amod", "npadvmod"):
                gender = _kin_gender(ent.root)
                name = strip_the(ent.text.strip())
                if not (ent.label_ == "PERSON" and same_person(name, ctx.known)):
                    state.antecedents.append(
                        Antecedent(name, ent.label_, gender, state.sentence, True)
                    )
        kin = kin_noun(tok)
        if kin and kin_name(tok) is None:
            owner = next((c for c in tok.children if c.dep_ == "poss"), None)
            if owner is not None and owner.lower_ in ("my", "our"):
                phrase = third_person(f"my {tok.text}", ctx.label, role=ctx.turn.role)
                state.antecedents.append(
                    Antecedent(phrase, "KIN", KIN_GENDER[kin], state.sentence, False)
                )
    state.sentence += 1
    return subs, text


def _kin_gender(tok: Any) -> str | None:
    """Gender of a named person from the kin noun beside it ("my sister Anna" → f)."""
    head = tok.head
    kin = kin_noun(head) or next((kin_noun(c) for c in tok.children if kin_noun(c)), None)
    return KIN_GENDER[kin] if kin else None
