"""Replacement wording: does a fact say that a person's state changed, in place of an old one?

Two questions the write gate asks of a candidate's text, without a slot:

- ``says_replacement(content)``: the wording puts a new value in the place of the old one ("now",
  "these days", "instead", "switched", "replaced", "no longer") or corrects what was said ("I
  misspoke", "typed it wrong", "actually X, not Y"), and adds nothing beside it (no "also",
  "another", "too"). A claim on a multi-valued slot said this way retires the current
  value rather than joining it.
- ``replaces_own_state(content)``: a replacement, or a change said by its event ("got married",
  "transferred", "gave up", "got it wrong earlier"), that is the person's own. The gate uses it when
  no claim rule decided: a near, same-subject state said before ("Jamal works as a line cook")
  is retired by "Jamal is the sous chef now" even when the two are read as different slots, or
  as none. What it rules out are the changes that are not the person's: a relative's or a
  colleague's ("Yuki's husband just started at Amazon, so they're both in tech now"), a thing's
  ("The fridge is full of bacon now"), a hypothetical ("might switch to ... now"), a request, an
  effort said with "now" ("now the user is trying to get back into their writing routine").
  A fact read as an amount or a date (a quantity, a budget, a deadline) is named outright by its
  number: it neither replaces nor is replaced by a fact read as another kind of attribute (two
  of one kind are the claim rule's to judge), except a plan and its date.

``retires(candidate, claim, neighbour, floor)`` is the gate's rule over both: the candidate says
its person's state changed and the neighbour (near, same subject) is a state it replaces, unless
the two claims were read with confidence as one attribute (the claim rule judged them) or as two
attributes named outright.

Pure and deterministic; the lexicon is English, like the rest of the local engine.
"""

from __future__ import annotations

import re

from kgmem.ingest.claims.engine import SURE
from kgmem.ingest.claims.lexicon import HYPOTHETICAL_RE, KIN_WORDS
from kgmem.ingest.gate.contradiction import leaves_another, states_aim, states_value
from kgmem.ingest.gate.measures import MEASURED_FAMILIES
from kgmem.ingest.gate.records import Neighbour
from kgmem.records import Claim, ExtractedFact
from kgmem.taxonomy import Category
from kgmem.taxonomy.slots import family, related_families

_REPLACING_RE = re.compile(
    # "now" as a change, not the present of a state ("on tenuous grounds right now", "for now")
    r"\b(?:(?<!right )(?<!for )(?<!just )(?<!by )(?<!until )(?<!till )(?<!even )(?<!every )now"
    r"(?! and then)|these days|nowadays|anymore|any more|no longer|instead|switched|replaced"
    r"|taken over|took over|swapped|changed|(?:has|have) become|from now on|no more"
    # a measure or a date moved: "raised the reading goal to 30", "pushed the launch back to May"
    # ("moved to Berlin" is a move, which the claim rule reads as a residence)
    r"|(?:raised|lowered|increased|decreased|upped|bumped|cut|extended|put)(?: \w+){0,4}"
    r" (?:up |down )?to"
    r"|(?:pushed|moved)(?: \w+){1,4} (?:up |back |down |out )?to)\b",
    re.IGNORECASE,
)
# A change of one's own state said without a replacement word: a move between schools or courses,
# a promotion, a wedding, a habit given up, a misdiagnosis. Only the slot-free rule reads these
# (``replaces_own_state``); the claim rule's multi-valued "replacing" reads the words above and
# the corrections below.
_CHANGED_RE = re.compile(
    r"\b(?:switching|transferred|promoted|graduated|retired|resigned|joined"
    r"|got (?:married|engaged|divorced|hired|promoted)|broke up|split up|started (?:seeing|dating)"
    r"|(?:is|are|am|'s|'re|'m) back (?:on|to|in)|(?:gave|given|giving) up|cut out"
    r"|misdiagnosed"
    # "a new place" is a home; "a new ramen place" is somewhere one ate once
    r"|new (?:\w+ )?(?:target|goal|plan|deadline|date|time|job|role|position|home|house"
    r"|flat|apartment|school|course|favou?rite|go-to)|new place"
    # a measure or an appointment moved: "improved to 78%", "rescheduled to March 22 at 4:30"
    r"|(?:moving|rescheduled|postponed|delayed|brought|improved|grown|grew|rose|risen"
    r"|fell|fallen|jumped|climbed|reached)(?: [\w,]+){0,7} (?:up |back |down |forward )?to)\b",
    re.IGNORECASE,
)
# A correction of what was said: the new value takes the place of the one said before, on a
# slot that holds several too ("Sorry, I misspoke: my second language is Afrikaans", "it's
# actually dust mites, not cats").
_CORRECTING_RE = re.compile(
    r"\b(?:misspoke\w*|told you (?:the )?wrong|(?:got|had|typed|wrote|said) (?:\w+ ){1,3}wrong"
    r"|mixed (?:\w+ )?up|correction|actually\b[^.,;:!?]{1,40},\s*not)\b",
    re.IGNORECASE,
)
_CUES = (_REPLACING_RE, _CORRECTING_RE, _CHANGED_RE)
_ADDING_RE = re.compile(
    r"\b(?:also|too|as well|another|second|additional|extra|besides|on top of)\b", re.IGNORECASE
)
# "Maya said: ...", "Maya told Ben: ...": the words said are the fact
_REPORTED_RE = re.compile(r"^[^:]{1,60}\b(?:said|says|told \w+|wrote|asked)\s*:\s*", re.IGNORECASE)
# Someone else's state: "Yuki's husband", "my roommate", "her boss" opening or naming the subject
_OTHERS_RE = re.compile(
    rf"\b(?:\w+'s|my|his|her|their|our|your)\s+(?:\w+\s+)?(?:{KIN_WORDS})s?\b", re.IGNORECASE
)
# A thing's state: "The fridge is ...", "This place is ...", "It's ..." (not "These days ...", and
# not "The user ..." / "The assistant ...": the rewrite's subject for a speaker with no name)
_THING_OPENING_RE = re.compile(
    r"^(?:the|this|that|these|those|its|it's|it is|there)\s+"
    r"(?!days\b|past\b|last\b|user\b|assistant\b)",
    re.IGNORECASE,
)
_CLAUSE_END_RE = re.compile(r"[,;:]|\s(?:which|what|can|could|would|so|but)\s", re.IGNORECASE)
_REQUEST_RE = re.compile(r"\bwants help\b|\?\s*$", re.IGNORECASE)
# An effort said with "now": "is trying to get back into ...", "is wondering how to ..." (a goal
# said with "now" is one: "now I just want to maintain")
_EFFORT_RE = re.compile(
    r"\b(?:trying|hoping|looking) (?:hard )?to\b|\bwondering\b|\bthinking about\b",
    re.IGNORECASE,
)
# "would rather" states a preference held now, not a hypothetical
_RATHER_RE = re.compile(r"\b(?:would|'d) rather\b", re.IGNORECASE)


def says_replacement(content: str) -> bool:
    """The wording puts a new value in the place of the old one, or corrects what was said,
    and adds nothing beside it."""
    cue = _REPLACING_RE.search(content) or _CORRECTING_RE.search(content)
    return cue is not None and not _ADDING_RE.search(_clause(content, cue))


def _clause(content: str, cue: re.Match[str]) -> str:
    """The text up to the end of the clause ``cue`` is in: the change as said. What a later
    clause says ("..., which one would you pick", "..., but the extra time for testing") is
    another statement, not a maybe or an addition of the change's own."""
    end = _CLAUSE_END_RE.search(content, cue.end())
    return content[: end.start() if end else len(content)]


def replaces_own_state(content: str) -> bool:
    """A replacement whose subject is the person the fact is about: not a relative's or a
    thing's, not a hypothetical, a request or a question (see module doc)."""
    cue = next((m for rx in _CUES if (m := rx.search(content))), None)
    if cue is None:
        return False
    # The change's own clause decides whether it is a maybe or an addition: "bumped the chair
    # budget to $450, which one would you pick now" asks a hypothetical of the assistant after a
    # change made; "the new sprint deadline of April 5, but ... the extra time for testing" adds
    # time to a plan, not a second deadline beside the first.
    clause = _clause(content, cue)
    if _ADDING_RE.search(clause) or HYPOTHETICAL_RE.search(_RATHER_RE.sub("", clause)):
        return False
    if _REQUEST_RE.search(content):
        return False
    if cue.group(0).casefold() == "now" and _EFFORT_RE.search(clause):
        # "Now the user is trying to get back into their writing routine": what one is after
        # now, not a state that took another's place
        return False
    said = _REPORTED_RE.sub("", content.strip(), count=1)
    return not _OTHERS_RE.search(said) and not _THING_OPENING_RE.match(said)


def aims(content: str, category: str) -> bool:
    """A statement of a goal, by its category or its wording ("trying to achieve 100%")."""
    return category == Category.GOAL or states_aim(content)


def _moves_a_value(content: str) -> bool:
    """The change is a measure or a date moved to a new value ("improved to 78%", "rescheduled
    to March 22", "raised the budget to $450"): a cue ending in "to" with a number or date next."""
    return any(
        m.group(0).casefold().endswith("to") and states_value(content[m.end() : m.end() + 40])
        for rx in (_REPLACING_RE, _CHANGED_RE)
        for m in rx.finditer(content)
    )


# What a replacement can retire: a state held, not a dated happening ("attended a support
# group on May 7" stays true when "is now part of a support group" is said).
_STATE_CATEGORIES = frozenset(
    {Category.FACT, Category.PREFERENCE, Category.IDENTITY, Category.RELATIONSHIP,
     Category.SKILL, Category.GOAL, Category.CONTEXT, Category.ACTIVITY}
)  # fmt: skip


def retires(
    candidate: ExtractedFact, claim: Claim | None, n: Neighbour, min_claim_confidence: float
) -> bool:
    """The candidate says its person's state changed and ``n`` (near, same subject) is the state
    it replaces. Where both claims were read with confidence the claim rule has judged the pair
    (a repetition, an addition, two attributes, another person): this rule is for the rest."""
    if n.category not in _STATE_CATEGORIES or not replaces_own_state(candidate.content):
        return False
    if leaves_another(candidate.content, n.content):
        # "switched from Microsoft Word to Scrivener" names what it replaces: a state that
        # mentions none of it ("struggling with drafting the essay") is another attribute
        return False
    if _moves_a_value(candidate.content) and (
        aims(candidate.content, candidate.category) != aims(n.content, n.category)
        or not states_value(n.content)
    ):
        # "coverage improved to 78%" replaces the level said before ("reached 65%"), not the
        # aim ("trying to achieve 100%") nor a plan with no value in it
        return False
    if (
        claim is not None
        and family(claim.slot) in MEASURED_FAMILIES - _PLAN
        and (n.claim is None or family(n.claim.slot) != family(claim.slot))
    ):
        # an amount said with "now" ("my survey has 140 responses now") is that amount's
        # change, judged by the claim rule against its own kind; it ends no other state
        return False
    if claim is None or n.claim is None:
        return True
    pair = {family(claim.slot), family(n.claim.slot)}
    if len(pair) == 2 and pair & MEASURED_FAMILIES and pair != _PLAN:
        # an amount or a date is named outright by its number: "the survey has 140 responses
        # now" says nothing of "the grant report is due on October 15" (the claim rule judges
        # two of one measure); a plan and its date are one ("would like to finish the kitchen
        # renovation by March" / "moved the kitchen renovation to the summer")
        return False
    if claim.subject != n.claim.subject and "'s " in claim.subject + n.claim.subject:
        # "Maya started a new job at Lincoln Elementary" is no change of where "Maya's daughter"
        # goes to school: the two were read as about two people
        return False
    low = min(claim.confidence, n.claim.confidence)
    if low < min_claim_confidence:
        return True
    # Both read: the claim rule has judged a pair of one slot family, and two attributes named
    # outright ("lives in Leeds now" beside "works as a line cook") are two facts. A guessed slot
    # beside another ("switched courses to architecture" guessed as a language) is not a reading
    # to trust over the change the words say, and two families of one attribute ("started
    # seeing someone" as a partner after "is single" as a status) were judged by no rule.
    new, held = family(claim.slot), family(n.claim.slot)
    if new == held:
        # a qualifier read from the first noun ("$300 for a new desk chair" as a desk budget,
        # "bumped the chair budget to $450" as a chair one) judged nothing either
        return claim.slot != n.claim.slot and new in _GUESSED_QUALIFIERS
    return low < SURE or related_families(new, held)


# A plan and its date: one fact said again in two families.
_PLAN = frozenset({"goal", "deadline"})
# Families whose qualifier is the nearest noun to an amount or a date, not a named kind.
_GUESSED_QUALIFIERS = frozenset({"budget", "quantity", "deadline", "goal"})
