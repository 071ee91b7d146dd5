"""The claim channel: a question about an attribute finds who holds it now, by slot, not wording.

"How old is Ana?" shares no word with "Ana is 29." beyond the name, and "old" matches "an old
Fiat Panda" better than the age. The write path already read each memory's claim (subject, slot,
value); this channel reads the question the same way. ``query_slot`` guesses the slot a question
asks about with the write path's nearest-prototype guess over the query embedding the other
channels already made (no model run of its own), and only a sure guess (``QUERY_SLOT_MIN``)
counts: a question that asks about no attribute ("When did Caroline go to the support group?")
gets a weak, scattered guess and no channel. ``claim_search`` then reads the live holders of
that slot family, and of the families whose values also answer it (a job question is answered
by an employer too: ``taxonomy.slots.answering_families``), for the question's named subjects
(for every subject when it names none: "what is my budget?" in a one-person namespace), newest
first, so the current value ranks first and the value it replaced, if still live, behind it.
The rows join the fusion as one more ranked list ("claim"); superseded memories are not read,
so the channel never lifts a stale value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from kgmem.core.slot_guess import PrototypeTable, SlotGuess, guess_slot, prototype_table
from kgmem.core.text import normalize_name
from kgmem.graph import repository
from kgmem.graph.client import GraphClient
from kgmem.graph.rows import ScoredId
from kgmem.ml.embedder import Embedder
from kgmem.taxonomy.slots import Polarity, Slot, answering_families

# A question's guess must be this sure (the guess's own confidence, at most 0.75): on questions
# about attributes ("How old is", "Where does X live", "What car does") the guesses were 0.6-0.75,
# on questions about events they were 0.3-0.45 and often the wrong slot.
QUERY_SLOT_MIN = 0.6
# Below the write gate's default claim threshold a stored claim is a guess kgmem does not act on.
HOLDER_MIN_CONFIDENCE = 0.5
HOLDER_LIMIT = 10
# The commonest attribute questions, by their wording: the guess over the embedding is weighed
# down by the names in them (MiniLM puts "Where does Maya work?" at cosine 0.39 from "Where
# does Alex work?"), so these are read as the words say. Anything else is left to the guess.
_WHO = r"[\w'’ -]{1,40}?"
_WORDED: tuple[tuple[re.Pattern[str], Slot], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), slot)
    for pattern, slot in (
        (rf"\bwhere (?:does|do) {_WHO} (?:currently |now )?work\b(?! out)", Slot.EMPLOYER),
        (rf"\bwho (?:does|do) {_WHO} (?:currently |now )?work for\b", Slot.EMPLOYER),
        (rf"\bwhich (?:company|firm|employer|organi[sz]ation|hospital|business|agency|bank)"
         rf" (?:does|do) {_WHO} work (?:at|for|in)\b", Slot.EMPLOYER),
        (rf"\bwhere (?:does|do) {_WHO} (?:currently |now )?live\b", Slot.RESIDENCE),
        (rf"\bwhich (?:city|town|country|neighbou?rhood|state) (?:does|do) {_WHO} live\b",
         Slot.RESIDENCE),
        (r"\bhow old (?:is|am|are)\b", Slot.AGE),
        (rf"\bwhat (?:does|do) {_WHO} do for (?:a living|work)\b", Slot.JOB_TITLE),
        (rf"\bwhat(?: is|'s) {_WHO}(?:'s|’s) (?:current |new )?(?:job(?: title)?|role|position"
         rf"|occupation|profession|title)\b", Slot.JOB_TITLE),
        (rf"\bwhere (?:is|are) {_WHO} (?:currently |now )?based\b", Slot.RESIDENCE),
        (rf"\bwho(?: is|'s) {_WHO}(?:'s|’s) employer\b", Slot.EMPLOYER),
        (rf"\bwhich (?:university|college|school|high school|uni) (?:does|do|is) {_WHO}"
         rf" (?:attend|go to|attending|going to|at)\b", Slot.SCHOOL),
        (rf"\bwhere (?:does|do|is|are) {_WHO} (?:currently |now )?(?:study|studying|at school"
         rf"|at university)\b", Slot.SCHOOL),
        (rf"\bwhat (?:does|do) {_WHO} (?:currently |now )?study\b|\bwhat (?:is|are) {_WHO}"
         rf" (?:currently |now )?studying\b|\bwhat(?: is|'s) {_WHO}(?:'s|’s) (?:major|degree"
         rf"|field of study)\b", Slot.FIELD_OF_STUDY),
        (rf"\b(?:is|are) {_WHO} (?:still )?(?:seeing (?:anyone|someone)|in a relationship|single"
         rf"|married|engaged|divorced)\b", Slot.RELATIONSHIP_STATUS),
        (rf"\bwho(?: is|'s) {_WHO} (?:dating|seeing|with|married to)\b", Slot.PARTNER),
        (rf"\bwhat diet (?:does|do|is) {_WHO} (?:follow|on)\b|\b(?:is|are) {_WHO}"
         rf" (?:still )?(?:vegan|vegetarian|pescatarian|on a diet)\b", Slot.DIET),
        (rf"\b(?:does|do) {_WHO} (?:still )?(?:smoke|vape)\b", Slot.HABIT),
        (rf"\bwhat (?:sport|sports|exercise) (?:does|do) {_WHO} (?:play|do)\b", Slot.HOBBY),
        (rf"\bwhat (?:name )?(?:does|do) {_WHO} (?:like to be called|prefer to be called"
         rf"|go by)\b", Slot.NICKNAME),
        (rf"\bwhat (?:is|are) {_WHO} allergic to\b|\b(?:is|are) {_WHO} allergic to\b",
         Slot.ALLERGY),
        (rf"\bwhat languages? (?:does|do) {_WHO} speak\b", Slot.LANGUAGE),
    )
)  # fmt: skip
_WORD_RE = re.compile(r"[^\W\d_]+(?=['’]s\b|\b)")
# The rewrite names a speaker without a name "The user" (claim subject "user"): a question about
# "the user" is about that person, not their sister's job.
UNNAMED_USER = "user"
_THE_USER_RE = re.compile(r"\b(?:the )?user(?:['’]s)?\b", re.IGNORECASE)
# what a worded question's guess says it is sure of: as sure as the surest prototype guess
WORDED_CONFIDENCE = 0.75


def table_for(embedder: Embedder) -> PrototypeTable:
    return prototype_table(embedder, embedder.embed, "question")


def query_slot(query: str, vector: Sequence[float], table: PrototypeTable) -> SlotGuess | None:
    """The slot a question asks about: by its wording when it is one of the commonest, else by
    the guess over its embedding; None when that guess is not sure enough."""
    for pattern, slot in _WORDED:
        if pattern.search(query):
            return SlotGuess(slot, Polarity.HOLDS, 1.0, 1.0, WORDED_CONFIDENCE)
    guess = guess_slot(vector, table)
    if guess is None or guess.confidence < QUERY_SLOT_MIN:
        return None
    return guess


def asked_about(query: str) -> frozenset[str]:
    """The names a question asks about, read from its capitalised words (each run of them, and
    each word), for an intent whose channels ran no entity recognition: the claim channel must
    not answer "What pet does Ibrahim have?" with his brother's puppy, nor "Where does the user
    work?" with the user's sister's job ("the user" is ``UNNAMED_USER``). No model run: the small
    model misses short names in questions anyway ("What pet does Ana have?")."""
    words = _WORD_RE.findall(query)[1:]  # the first word is capitalised by the sentence
    runs: list[list[str]] = [[]]
    for w in words:
        if w[:1].isupper() and w != "I":
            runs[-1].append(w)
        elif runs[-1]:
            runs.append([])
    names = {" ".join(r) for r in runs if r} | {w for r in runs for w in r}
    if _THE_USER_RE.search(query):
        names.add(UNNAMED_USER)
    return frozenset(normalize_name(n) for n in names) - {""}


async def claim_search(
    graph: GraphClient, namespace: str, subjects: Iterable[str], guess: SlotGuess
) -> list[ScoredId]:
    """The live memories asserting a family that answers ``guess``'s slot for ``subjects``,
    newest first."""
    return await repository.search_claim_holders(
        graph,
        namespace=namespace,
        subjects=sorted(subjects),
        families=list(answering_families(guess.slot)),
        min_confidence=HOLDER_MIN_CONFIDENCE,
        limit=HOLDER_LIMIT,
    )
