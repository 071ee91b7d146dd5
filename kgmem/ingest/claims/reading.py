"""The local claim engine's two readers together: the lexicon first, then the slot prototypes.

``read_claim(content, vector, table=..., parse=..., speaker=..., names=...)`` returns what a
memory asserts: the lexicon's claim (``engine.extract_claim``) when a wording names the slot,
else a claim whose slot is the nearest-prototype guess over the memory's embedding
(``slot_guess``), whose value and qualifier come from spaCy's parse of the memory
(``values``), whose subject is the name that opens the main clause (else the speaker; someone's
kin when the value's own clause names them: "Maya's cousin got into Oxford, ..."),
and whose confidence is the guess's (similarity and margin; below the gate's threshold it never
retires anything). A hypothetical, a memory about no one, one more of a kind said as such
("another goal: ..."), or a value the parse cannot find gives no guessed claim. ``parse`` is
called only when a guess needs a value, so a memory the lexicon reads costs no parse
(``plan_claim`` says which need one). Pure given its arguments;
``ClaimReader`` binds them to the models for the write path (prototype vectors built on first
use, kept per embedder) and reads a batch with one spaCy ``pipe`` over the memories to parse.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from kgmem.core.kind_guess import kind_table, nearest_kind
from kgmem.core.slot_guess import PrototypeTable, SlotGuess, guess_slot, prototype_table
from kgmem.core.text import normalize_name
from kgmem.core.tunables import READ_CONFIDENCE
from kgmem.ingest.claims.engine import SURE, UNSAID_KIND, extract_claim, subject_before
from kgmem.ingest.claims.lexicon import HYPOTHETICAL_RE
from kgmem.ingest.claims.values import parse_value
from kgmem.ml.embedder import Embedder
from kgmem.ml.nlp import Nlp
from kgmem.records import Claim
from kgmem.taxonomy.slots import Polarity, Slot, slot_key

# Goals and plans are stated with "want to", "hoping to": not hypotheticals for these slots.
_PLANS = frozenset({Slot.GOAL, Slot.DEADLINE, Slot.BUDGET})
_REQUEST_RE = re.compile(r"\bwants help\b", re.IGNORECASE)
# A shared image's caption ("[shares a photo: a photo of a desk with a laptop]", see
# ``input_files``) says what was shown, not what the person is or has: nothing to guess from.
_BIRTH_RE = re.compile(r"\b(?:birthdays?|born|b-?days?|birth)\b", re.IGNORECASE)
_CAPTION_RE = re.compile(r"\[shares a photo:[^\]]*\]?")
# One more of a kind said as such ("Another goal for this year: read more non-fiction") adds to
# what is held; a guessed slot would read it as the one value replacing the last.
_ONE_MORE_RE = re.compile(
    r"\b(?:another|a second|an additional|one more)\s+(?:\w+\s+)?(?:goal|target|aim|plan|job"
    r"|role|pet|dog|cat|car|hobby|language|project|deadline|budget)\b",
    re.IGNORECASE,
)
# A slot's own change said without its value: a guessed value of that slot in the same memory is
# the new one ("since I transferred" of a school; not "transferred the files")
_CHANGE_SAID = {
    Slot.SCHOOL: re.compile(
        r"\btransferred\b(?! (?:the|a|an|some|it|them|money|funds|data|files|my|her|his|their)\b)",
        re.IGNORECASE,
    ),
}
# Slots whose statements are about things as often as people ("the survey has 300 responses")
_ABOUT_THINGS = frozenset({Slot.QUANTITY, Slot.BUDGET, Slot.GOAL, Slot.DEADLINE})
_UNSAID = slot_key(Slot.FAVOURITE, UNSAID_KIND)
_REPORTING = frozenset({"say", "tell", "write", "mention", "ask", "add"})
# Families the lexicon reads from a number said with its thing: no guess replaces that reading.
_COUNTED = (Slot.QUANTITY.value, Slot.BUDGET.value)
# A guess this sure replaces a loose lexicon reading of another slot family.
OVERRIDE_CONFIDENCE = 0.6
# The rewrite's subject for a speaker with no name ("The user's sister lives in Boston"): read as
# the name "User", so every rule that finds a person by a capitalised name finds them (the
# subject is "user" either way, as the speaker "The user" normalises to).
_ROLE_RE = re.compile(r"\b[Tt]he (user|assistant)\b")


def as_named(text: str) -> str:
    """``text`` with "the user"/"the assistant" written as the names "User"/"Assistant"."""
    return _ROLE_RE.sub(lambda m: m.group(1).capitalize(), text)


def read_claim(
    content: str,
    vector: Sequence[float] | None,
    *,
    table: PrototypeTable | None,
    parse: Callable[[str], Any],
    speaker: str | None,
    names: frozenset[str] = frozenset(),
    kind_of: Callable[[str], str | None] = lambda value: None,
) -> Claim | None:
    content = as_named(content)
    claim, guess = plan_claim(content, vector, table=table, speaker=speaker, names=names)
    if guess is None:
        return with_kind(claim, kind_of)
    guessed = _guessed(content, guess, parse, speaker, names)
    return guessed if guessed is not None else with_kind(claim, kind_of)


def with_kind(claim: Claim | None, kind_of: Callable[[str], str | None]) -> Claim | None:
    """A favourite said without its kind keyed by the kind ``kind_of`` names for its value, or no
    claim when it names none; any other claim as it is."""
    if claim is None or claim.slot != _UNSAID:
        return claim
    kind = kind_of(claim.value)
    return replace(claim, slot=slot_key(Slot.FAVOURITE, kind)) if kind else None


def plan_claim(
    content: str,
    vector: Sequence[float] | None,
    *,
    table: PrototypeTable | None,
    speaker: str | None,
    names: frozenset[str] = frozenset(),
) -> tuple[Claim | None, SlotGuess | None]:
    """The lexicon's claim, and the slot guess still to be read from the parse (None when the
    lexicon's reading stands): ``read_claim`` without the parse, so a batch can parse together
    exactly the memories that need it."""
    content = as_named(content)
    claim = extract_claim(content, speaker=speaker, names=names)
    if vector is None or table is None or (claim is not None and claim.confidence >= SURE):
        return claim, None
    guess = guess_slot(vector, table)
    if guess is None:
        return claim, None
    # A loose lexicon reading ("switched to" read as a preference) yields only to a confident
    # guess of another slot family ("switched to learning Korean" is a language); an amount read
    # with its number and its thing ("cut down to one coffee a day") yields to none.
    if claim is not None and (
        guess.confidence < OVERRIDE_CONFIDENCE
        or claim.slot.partition(":")[0] in (guess.slot, *_COUNTED)
    ):
        return claim, None
    return claim, guess


def _guessed(
    content: str,
    guess: SlotGuess,
    parse: Callable[[str], Any],
    speaker: str | None,
    names: frozenset[str],
) -> Claim | None:
    if guess.slot not in _PLANS and HYPOTHETICAL_RE.search(content):
        return None  # "might move", "thinking about going vegan": nothing holds yet
    if _REQUEST_RE.search(content):
        return None  # "<name> wants help to ...": a request (``requests.intent``), no attribute
    if _CAPTION_RE.search(content) or _ONE_MORE_RE.search(content):
        return None
    if guess.slot == Slot.BIRTHDAY and not _BIRTH_RE.search(content):
        # a date near the prototypes of a birthday ("a time anchor of March 15, 2024", "it's on
        # May 20 at 2:00 PM") is some day, not one's birthday, unless the words say so
        return None
    doc = parse(content)
    sents = list(doc.sents)
    root = sents[0].root if sents else None
    subject = subject_before(
        content, root.idx if root is not None else len(content), speaker=speaker, names=names
    )
    if subject and not _names_someone(subject, doc, speaker):
        # "Economics is so much more maths-heavy than Leila expected": a capitalised word that
        # opens the clause but names no one; the memory is the speaker's
        subject = normalize_name(speaker) if speaker else ""
    if not subject:
        return None
    words = frozenset(subject.replace("'s", " ").split()) | _name_words(speaker)
    if guess.slot not in _ABOUT_THINGS and not _about_someone(doc, words):
        return None  # "the fridge is full of bacon now": a thing's state, not the person's
    parsed = parse_value(doc, guess.slot, words, ended=guess.polarity is Polarity.ENDED)
    if parsed is not None and (at := content.lower().find(parsed.value.lower())) > 0:
        # the clause the value is in names whose it is: "Maya's cousin got into Oxford, the
        # whole family is buzzing" (the parse's root is "buzzing") is the cousin's school
        near = subject_before(content, at, speaker=speaker, names=names)
        if "'s " in near and near != subject:
            subject = near
    ended = guess.polarity is Polarity.ENDED
    if ended and parsed is not None and _said_instead(content, parsed.value):
        ended = False  # "it's actually dust mites, not cats": the value said is the one that holds
    if parsed is None and not ended:
        return None
    qualifier = parsed.qualifier if parsed is not None else ""
    confidence = guess.confidence
    if not ended and (said := _CHANGE_SAID.get(guess.slot)) and said.search(content):
        # "The library at UBC is so much nicer ... since Pavel transferred": the words say the
        # slot changed, so the value the parse found is as sure as one a wording names
        confidence = max(confidence, READ_CONFIDENCE)
    return Claim(
        subject=subject,
        slot=slot_key(guess.slot, qualifier),
        value=parsed.value if parsed is not None else "",
        polarity=(Polarity.ENDED if ended else Polarity.HOLDS).value,
        confidence=confidence,
    )


def _said_instead(content: str, value: str) -> bool:
    """``value`` is said in place of another: "<value>, not <old>" or "not <old> but <value>"."""
    v = re.escape(value)
    said = rf"\b{v}\W{{0,2}}\s*not\b|\bnot\b[^.;:]{{1,40}}\bbut (?:\w+ )?{v}\b"
    return re.search(said, content, re.IGNORECASE) is not None


def _about_someone(doc: Any, subject_words: frozenset[str]) -> bool:
    """Some clause's grammatical subject is a person (a name, a pronoun, the subject's own
    words) or something of someone's ("Lucía's apartment"), or no clause has one ("Sold the
    car!"). The one who "said:" or "told" something is not counted: the words said are."""
    subjects = [
        t for t in doc if t.dep_ in ("nsubj", "nsubjpass") and t.head.lemma_ not in _REPORTING
    ]
    if not subjects:
        return True
    return any(
        s.pos_ in ("PRON", "PROPN")
        or s.text.lower() in subject_words
        or any(c.dep_ == "poss" for c in s.children)
        for s in subjects
    )


def _names_someone(subject: str, doc: Any, speaker: str | None) -> bool:
    """The subject is the speaker, someone's kin ("maya's sister"), or a person the parse
    tags as a name (a proper noun, not the opening "Nothing", "New target", "Pottery")."""
    if (speaker and subject == normalize_name(speaker)) or "'s " in subject:
        return True
    first = subject.split()[0]
    for tok in doc:
        if tok.text.lower() == first:
            return bool(tok.pos_ == "PROPN" and tok.ent_type_ in ("", "PERSON", "GPE", "ORG"))
    return False


def _name_words(speaker: str | None) -> frozenset[str]:
    return frozenset(normalize_name(speaker).split()) if speaker else frozenset()


@dataclass(frozen=True)
class ClaimInput:
    """One memory to read a claim from: its text, embedding, speaker and entity names."""

    content: str
    vector: Sequence[float] | None
    speaker: str | None
    names: frozenset[str] = frozenset()


class ClaimReader:
    """``read_claim`` bound to the write path's models."""

    def __init__(self, embedder: Embedder, nlp: Nlp) -> None:
        self._embedder = embedder
        self._nlp = nlp

    def table(self) -> PrototypeTable:
        return prototype_table(self._embedder, self._embedder.embed)

    def read(
        self,
        content: str,
        vector: Sequence[float] | None,
        speaker: str | None,
        names: frozenset[str] = frozenset(),
    ) -> Claim | None:
        return read_claim(
            content,
            vector,
            table=self.table(),
            parse=lambda text: self._nlp.pipeline()(text),
            speaker=speaker,
            names=names,
            kind_of=self._kind_of,
        )

    def _kind_of(self, value: str) -> str | None:
        table = kind_table(self._embedder, self._embedder.embed)
        return nearest_kind(self._embedder.embed([value])[0], table)

    def read_many(self, items: Sequence[ClaimInput]) -> list[Claim | None]:
        """``read`` for each item, the memories that need a parse parsed in one spaCy batch
        (``nlp.pipe`` is several times faster per text than one call per memory)."""
        table = self.table()
        named = [as_named(i.content) for i in items]
        plans = [plan_claim(c, i.vector, table=table, speaker=i.speaker, names=i.names)
                 for c, i in zip(named, items, strict=True)]  # fmt: skip
        texts = sorted({c for c, (_, guess) in zip(named, plans, strict=True) if guess})
        docs = dict(zip(texts, self._nlp.pipeline().pipe(texts), strict=True))
        out: list[Claim | None] = []
        for text, item, (claim, guess) in zip(named, items, plans, strict=True):
            guessed = None
            if guess is not None:
                guessed = _guessed(text, guess, docs.__getitem__, item.speaker, item.names)
            out.append(guessed if guessed is not None else claim)
        unsaid = sorted({c.value for c in out if c is not None and c.slot == _UNSAID})
        if not unsaid:
            return out
        # the values of favourites said without their kind, embedded together
        near = kind_table(self._embedder, self._embedder.embed)
        vectors = self._embedder.embed(unsaid)
        kinds = {v: nearest_kind(vec, near) for v, vec in zip(unsaid, vectors, strict=True)}
        return [with_kind(c, kinds.get) for c in out]
