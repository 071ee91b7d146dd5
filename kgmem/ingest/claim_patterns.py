"""The local claim engine's patterns: which wording asserts which slot, and which ends one.

Each :class:`~kgmem.ingest.claim_lexicon.ClaimPattern` is a slot, a polarity and a regular
expression over a memory's third-person text with a named group ``v`` (the value) and optionally
``q`` (the qualifier of a qualified slot) and ``s`` (the subject, when the wording names it:
"Maya's favourite colour is"). ``PATTERNS`` is the transitions
(:mod:`kgmem.ingest.claim_transitions`) followed by the values here, tried in order: the specific
forms ("moved out of", "no longer works at") come before the general ones ("moved", "works at").
Words people use for the same thing are folded by the lexicon (``KIND_WORDS``) and the value
trimming in ``claims``. Pure data; the matching lives in :mod:`kgmem.ingest.claims`.
"""

from __future__ import annotations

from kgmem.ingest.claim_lexicon import (
    DET,
    DIETS,
    HOBBIES,
    KIND_WORDS,
    LANGUAGES,
    NAME,
    PET,
    POSS,
    ClaimPattern,
    V,
)
from kgmem.ingest.claim_lexicon import pattern as _p
from kgmem.ingest.claim_transitions import TRANSITIONS
from kgmem.taxonomy.slots import Slot

_AGE_HOLDER = rf"(?:\b{NAME}|\b(?:he|she|they|i))"
_BARE_NUMBER = r"\b(?![-./:,]?\d)(?!\s*(?:%|minutes|hours|days|weeks|percent))"

VALUES: tuple[ClaimPattern, ...] = (
    _p(
        Slot.FAVOURITE,
        rf"{POSS} (?:new |all-time |current )?favou?rite (?P<q>[\w ]+?) (?:is|are"
        rf"|has become|became) (?:now )?{V}",
    ),
    _p(Slot.FAVOURITE, rf"\bfavou?rite (?P<q>[\w ]+?) (?:is|are|has become|became) (?:now )?{V}"),
    _p(Slot.BIRTHDAY, rf"\bbirthday (?:is|falls on|is actually|is on) (?:on )?{V}"),
    _p(Slot.BIRTHDAY, rf"\bwas born on {V}"),
    _p(
        Slot.NICKNAME,
        rf"\b(?:goes by|go by|going by|prefers to be called|likes to be called"
        rf"|nickname is) {V}",
    ),
    _p(Slot.NAME, rf"\b(?:changed (?:her|his|their) name to|legal name is|new name is) {V}"),
    # an age right after the person it is of ("Maya is 29", "she just turned 30"): "Alice's phone
    # number is 555-1234" or "the score is 120" is a thing's number, and "her son is 7 now" is
    # the son's age, which this subject-less reading would give to the speaker
    _p(Slot.AGE, _AGE_HOLDER + r" (?:is|turned|just turned) (?P<v>\d{1,3}) (?:years old|now|this)"),
    _p(Slot.AGE, _AGE_HOLDER + r" (?:is|turned|just turned) (?P<v>\d{1,3})" + _BARE_NUMBER),
    _p(Slot.RESIDENCE, rf"\b(?:moved|relocated|moving|moves) (?:back )?(?:to|into) {DET}{V}"),
    _p(Slot.RESIDENCE, rf"\b(?:lives|living|live|resides|based|settled) (?:now )?in {V}"),
    _p(Slot.RESIDENCE, rf"\b(?:new )?(?:apartment|place|house|home|flat) (?:is )?in {V}"),
    _p(Slot.RESIDENCE, rf"\b(?:is|am|are) (?:now )?(?:a )?(?P<v>{NAME}) resident\b"),
    _p(
        Slot.JOB_TITLE,
        rf"\b(?:was promoted to|got promoted to|promoted to|new role as|new job as"
        rf"|works as|working as|work as|started as|hired as|became) {DET}{V}",
    ),
    _p(
        Slot.EMPLOYER,
        rf"\b(?:works|working|work|employed|started working) (?:now )?(?:at|for|by) {V}",
    ),
    _p(Slot.EMPLOYER, rf"\b(?:is|am|are) (?:now )?(?:at|with) (?P<v>{NAME})"),
    # a shift, a rota or a placement somewhere is work there ("just got back from my shift at
    # St. Mary's Hospital")
    _p(Slot.EMPLOYER, rf"\b(?:shift|shifts|rota|placement|internship) (?:at|with) {V}"),
    _p(
        Slot.EMPLOYER,
        rf"\b(?:joined|got a job at|got hired (?:at|by)|was hired (?:at|by)"
        rf"|accepted an offer from|started (?:a (?:new )?job )?at|new job at) {V}",
    ),
    _p(
        Slot.FIELD_OF_STUDY,
        rf"\b(?:majoring in|major(?: is| to)|studying|studies|switched "
        rf"(?:her|his|their) major to|degree in) {V}",
    ),
    _p(
        Slot.SCHOOL,
        rf"\b(?:attends|attending|enrolled (?:at|in)|transferred to|goes to school at"
        rf"|studies at|studying at) {V}",
    ),
    _p(
        Slot.PARTNER,
        rf"\b(?:is |got )?(?:dating|married to|engaged to|seeing|in a relationship"
        rf" with) {V}",
    ),
    _p(
        Slot.PARTNER,
        rf"\b(?:boyfriend|girlfriend|partner|husband|wife|fiancée?),? (?:is )?(?P<v>{NAME})",
    ),
    _p(Slot.RELATIONSHIP_STATUS, r"\bis (?:now )?(?P<v>single|married|engaged|divorced|widowed)\b"),
    _p(Slot.RELATIONSHIP_STATUS, r"\b(?:just )?got (?P<v>married|engaged|divorced)\b"),
    _p(
        Slot.PET,
        rf"\b(?:has|adopted|got|rescued|bought|have) {DET}(?:\w+ )?(?P<q>{PET}) "
        rf"(?:named|called) (?P<v>{NAME})",
    ),
    # "Maya's dog Biscuit loves the beach": the wording presupposes the pet
    _p(Slot.PET, rf"{POSS} (?:\w+ )?(?P<q>{PET}),? (?P<v>{NAME})\b"),
    _p(
        Slot.DIET,
        rf"\b(?:is|went|became|going|gone|eats|eating) (?:now |fully |strictly )?"
        rf"(?P<v>{DIETS})\b",
    ),
    _p(Slot.DIET, rf"\bfollows? (?:a |an )?(?P<v>{DIETS}|\w+) diet"),
    _p(Slot.ALLERGY, rf"\b(?:is |was |became )?allergic to {V}"),
    _p(
        Slot.HEALTH,
        r"\b(?:diagnosed with|has been diagnosed with|suffers from|has) "
        r"(?P<v>asthma|diabetes|migraines|arthritis|celiac disease|anxiety|depression"
        r"|high blood pressure|adhd|eczema|insomnia)",
    ),
    _p(Slot.LANGUAGE, rf"\b(?:speaks|learning|learns|studying|fluent in) (?P<v>{LANGUAGES})\b"),
    _p(Slot.POSSESSION, rf"\bdrives {DET}{V}", qualifier="car"),
    _p(
        Slot.POSSESSION,
        rf"\b(?:bought|got|owns|has|purchased|upgraded to|switched to) {DET}"
        r"(?P<v>[^,;.!?()\"]*?\b(?:" + "|".join(KIND_WORDS) + r")\b[^,;.!?()\"]*)",
    ),
    _p(Slot.PREFERENCE, rf"\b(?:prefers|switched to|now drinks|now uses|changed to) {DET}{V}"),
    _p(Slot.HABIT, r"\b(?P<v>smokes|vapes|smoking|vaping)\b"),
    _p(
        Slot.HOBBY,
        rf"\b(?:took up|started|plays|picked up|got into|is into) {DET}"
        rf"(?P<v>{HOBBIES})\b",
    ),
    _p(
        Slot.BUDGET,
        r"\b(?:allocated|budgeted|set aside|budget (?:of|is)|has) (?P<v>[$€£]\s?[\d,.]+"
        r"(?:\s?[kKmM])?)(?: (?:for|on|to) (?P<q>[\w ]+))?",
        plans=True,
    ),
    _p(
        Slot.DEADLINE,
        r"\bdeadline (?:for (?P<q>[\w ]+?) )?(?:is|was moved to|moved to|"
        rf"has been moved to|is now) {V}",
        plans=True,
    ),
    # "the new sprint deadline of April 5", "a deadline of April 1 for the first sprint"
    _p(Slot.DEADLINE, rf"\b(?:(?P<q>[a-z]+) )?deadline (?:of|to|is now) {V}", plans=True),
    # "the report for the board is due on October 10", "my thesis draft is due May 15": the
    # thing due names the deadline, as "the report deadline" does
    _p(
        Slot.DEADLINE,
        rf"\b(?P<q>(?-i:[a-z][\w-]*(?: [a-z][\w-]*)?))(?: for (?:the |a |an |my |our |their )?"
        rf"[a-z][\w ]*?)? (?:is|are|was) (?:now )?due (?!to\b)(?:on |by |in )?{V}",
        plans=True,
    ),
    _p(Slot.GOAL, rf"\bgoal (?:is|was) (?:now )?to {V}", plans=True),
    # a measure said changed: "response time, which has recently improved to 250ms", "my
    # accuracy improved from 70% to 90%": the counted thing is the word before the change
    _p(
        Slot.QUANTITY,
        r"\b(?-i:(?P<q>[a-z]+)),? (?:which |that )?(?:has |have |had )?(?:recently |now |just "
        r"|finally |since )?(?:improved|increased|decreased|dropped|grown|grew|risen|rose"
        r"|fallen|fell|gone up|gone down|went up|went down|reduced|climbed|jumped|changed"
        r"|extended|expanded|raised|lowered|cut|bumped|boosted|upped) (?:it |them )?(?:from "
        r"[\d,.]+\s?(?:%|ms|s|k)? )?to (?P<v>\d[\d,.]*\s?(?:%|ms|s|kb|mb|gb|k)?)",
        plans=True,
    ),
    _p(
        Slot.QUANTITY,
        r"\b(?:has|have|had|is at|at|to|now|down to|up to|collected|read|about|with|reached"
        r"|around|of) (?P<v>\d[\d,.]*\s?(?:%|ms|s|kb|mb|gb|k)?) (?P<q>[a-z]+)\b",
        plans=True,
    ),
    # a share reached with nothing counted after it ("has currently reached 65% so far"): tried
    # after the form above, which reads "reached 65% coverage" as coverage
    _p(
        Slot.QUANTITY,
        r"\b(?:reached|hit|achieved|attained|is at|now at) (?P<v>\d[\d,.]*\s?%)",
        qualifier="percent",
        plans=True,
    ),
)

PATTERNS: tuple[ClaimPattern, ...] = TRANSITIONS + VALUES
