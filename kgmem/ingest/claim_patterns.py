"""The local claim engine's patterns: which wording asserts which slot, and which ends one.

Each :class:`~kgmem.ingest.claim_lexicon.ClaimPattern` is a slot, a polarity and a regular
expression over a memory's third-person text with a named group ``v`` (the value) and optionally
``q`` (the qualifier of a qualified slot) and ``s`` (the subject, when the wording names it:
"Maya's favourite colour is"). ``PATTERNS`` is the transitions
(:mod:`kgmem.ingest.claim_transitions`), the values here, then the amounts and plans
(:mod:`kgmem.ingest.claim_amounts`), tried in order: the specific
forms ("moved out of", "no longer works at") come before the general ones ("moved", "works at").
Words people use for the same thing are folded by the lexicon (``KIND_WORDS``) and the value
trimming in ``claims``. Pure data; the matching lives in :mod:`kgmem.ingest.claims`.
"""

from __future__ import annotations

from kgmem.ingest.claim_amounts import AMOUNTS
from kgmem.ingest.claim_lexicon import (
    CAP_NAME,
    DET,
    DIETS,
    DRINKS,
    HABIT_VERBS,
    HOBBIES,
    JOB_PHRASE,
    KIND_PHRASE,
    KIND_WORDS,
    LANGUAGES,
    NAME,
    NOT_SCHOOL,
    PET,
    POSS,
    SCHOOL_NAME,
    ClaimPattern,
    V,
)
from kgmem.ingest.claim_lexicon import pattern as _p
from kgmem.ingest.claim_transitions import TRANSITIONS
from kgmem.taxonomy.slots import Slot

_FAV = r"(?:new |current |all-time |absolute |top )?(?:favou?rite|fave|go-to|comfort)"
_WORK_THING = (
    r"(?:new |current |old )?(?:job|role|position|gig|office|desk|team|colleagues|coworkers"
    r"|co-workers|boss|manager|first (?:day|week|month)|onboarding|contract)"
)
_NAMED_WORK = rf"{NOT_SCHOOL}{CAP_NAME}"
_KINDS = "|".join(KIND_WORDS)
_MEAT = r"meat|chicken|beef|pork|steak|burgers|fish"
_MODES = r"train|bus|tube|subway|metro|tram|ferry|bike|car|scooter|foot"
# not a field: "a high school student", "a PhD student", "an exchange student"
_NOT_FIELDS = (
    r"a|an|the|high school|school|grad|graduate|phd|masters?|exchange|international|mature|college"
    r"|university|uni|good|great|top|star|model|former|ex|new|first|final|visiting|straight"
)
_AGE_HOLDER = rf"(?:\b{NAME}|\b(?:he|she|they|i))"
_BARE_NUMBER = r"\b(?![-./:,]?\d)(?!\s*(?:%|minutes|hours|days|weeks|percent))"

VALUES: tuple[ClaimPattern, ...] = (
    _p(Slot.FAVOURITE, rf"{POSS} {_FAV} (?P<q>[\w ]+?) (?:is|are|has become|became) (?:now )?{V}"),
    _p(Slot.FAVOURITE, rf"\b{_FAV} (?P<q>[\w ]+?) (?:is|are|has become|became) (?:now )?{V}"),
    # the value first: "Queen is still Ravi's favourite band", "sushi has become Maya's go-to
    # lunch", "The Office is Leila's comfort show"
    _p(
        Slot.FAVOURITE,
        rf"(?:\bis|\bare|['’]s|\bhas become|\bhave become|\bbecame) (?:now |still |officially "
        rf"|definitely |really |easily )?{POSS} {_FAV}(?: (?P<q>[a-z][\w-]*(?: [a-z][\w-]*)?))?",
        before=True,
    ),
    # a team one supports is one's favourite team
    _p(
        Slot.FAVOURITE,
        rf"\b(?:supports|roots for|cheers for|is (?:now )?an? (?:\w+ )?(?P<v2>{NAME}) supporter)"
        rf"(?: (?:the )?(?P<v>{NAME})\b(?!['’]))?",
        qualifier="team",
    ),
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
    # a dwelling somewhere: the place, not the flat ("moved into a flat in Leeds")
    _p(
        Slot.RESIDENCE,
        rf"\b(?:moved|relocated|moving|moves) (?:back )?(?:in)?to {DET}(?:[\w-]+ ){{0,2}}?"
        rf"(?:flat|apartment|house|place|condo|studio|home|loft|cottage|bungalow|townhouse)"
        rf" (?:in|on|near) {V}",
    ),
    _p(Slot.RESIDENCE, rf"\b(?:moved|relocated|moving|moves) (?:back )?(?:to|into) {DET}{V}"),
    _p(Slot.RESIDENCE, rf"\b(?:lives|living|live|resides|based|settled) (?:now )?in {V}"),
    _p(Slot.RESIDENCE, rf"\b(?:new )?(?:apartment|place|house|home|flat) (?:is )?in {V}"),
    _p(Slot.RESIDENCE, rf"\b(?:is|am|are) (?:now )?(?:a )?(?P<v>{NAME}) resident\b"),
    _p(Slot.RESIDENCE, rf"\bcalls? (?P<v>{NAME}) home\b"),
    _p(
        Slot.JOB_TITLE,
        rf"\b(?:was promoted to|got promoted to|promoted to|new role as|new job as"
        rf"|works as|working as|work as|started as|hired as) {DET}{V}",
    ),
    # an occupation said with a copula or a role ("Maya is now a senior nurse", "became a school
    # principal", "As a sales associate, Leila ..."), someone made one ("They made Leila store
    # manager", "was named head chef"), or the title named ("Raj's job title is staff engineer")
    _p(
        Slot.JOB_TITLE,
        rf"\b(?:is|am|are|became|has become|have become) (?:now |currently |still |officially "
        rf"|finally )?(?:a |an |the )?{JOB_PHRASE}",
    ),
    _p(
        Slot.JOB_TITLE,
        rf"(?:^|[.!?]\s+)As (?:a |an |the )?{JOB_PHRASE},? (?P<s>{NAME})\b(?!['’])",
    ),
    _p(
        Slot.JOB_TITLE,
        rf"\b(?:made|named|appointed|promoted) (?P<s>{NAME})\b(?!['’]) (?:as |to )?"
        rf"(?:the |a |an |their |our |its )?(?:new )?{JOB_PHRASE}",
    ),
    _p(
        Slot.JOB_TITLE,
        rf"\b(?:was|got|has been|been) (?:made|named|appointed) (?:as )?(?:the |a |an |their "
        rf"|our |its )?(?:new )?{JOB_PHRASE}",
    ),
    _p(
        Slot.JOB_TITLE,
        rf"(?:{POSS}|\b(?:her|his|their|my|our)) (?:new |current |official )?(?:job title|title"
        rf"|role|position) (?:is|has become|became|is now|changed to) (?:now )?"
        rf"(?!(?:to|in|at|on|that|not|a bit|very|so|really)\b){DET}{V}",
    ),
    _p(
        Slot.EMPLOYER,
        rf"\b(?:works|working|work|employed|started working) (?:now )?(?:at|for|by) {V}",
    ),
    # a named school one is at, or whose first days one tells of, is one's school
    _p(Slot.SCHOOL, rf"\b(?:is|am|are) (?:now )?(?:at|in) {SCHOOL_NAME}"),
    _p(
        Slot.SCHOOL,
        rf"\b(?:first|second|last) (?:day|days|week|weeks|term|semester|year) (?:at|of) "
        rf"{SCHOOL_NAME}",
    ),
    _p(Slot.SCHOOL, rf"\bgoes to {SCHOOL_NAME}"),
    _p(Slot.EMPLOYER, rf"\b(?:is|am|are) (?:now )?(?:at|with) (?P<v>{NAME})"),
    # a shift, a rota or a placement somewhere is work there ("just got back from my shift at
    # St. Mary's Hospital")
    _p(Slot.EMPLOYER, rf"\b(?:shift|shifts|rota|placement|internship) (?:at|with) {V}"),
    # one's work place named through the work: "Nadia's team at Google", "her new job at
    # Stripe", "Raj's first week at Monzo", "his colleagues at the BBC"
    _p(Slot.EMPLOYER, rf"{POSS} {_WORK_THING} (?:at|with) {NOT_SCHOOL}{CAP_NAME}"),
    _p(
        Slot.EMPLOYER,
        rf"\b(?:her|his|their|my|our) {_WORK_THING} (?:at|with) {NOT_SCHOOL}{CAP_NAME}",
    ),
    _p(
        Slot.EMPLOYER,
        rf"\b(?:joined|got a job at|got hired (?:at|by)|was hired (?:at|by)"
        rf"|accepted an offer from|started (?:a (?:new )?job )?at|new job at"
        rf"|landed (?:a |an )?(?:[\w-]+ )?(?:job|role|position|gig) (?:at|with)"
        rf"|took (?:a |an )?(?:[\w-]+ )?(?:job|role|position) (?:at|with)"
        rf"|freelances? for|contracts? for|signed with) {V}",
    ),
    _p(
        Slot.FIELD_OF_STUDY,
        rf"\b(?:majoring in|major(?: is| to)|(?:studying|studies)(?! at\b)|switched "
        rf"(?:her|his|their) major to|(?:degree|PhD|doctorate|masters?|master['’]s|BA|BSc|MSc|MA"
        rf"|diploma|thesis|dissertation) (?:is )?(?:in|on)) {V}",
    ),
    # the course changed: "switched courses to architecture", "changed her major to law", "moved
    # their PhD into climate modelling"
    _p(
        Slot.FIELD_OF_STUDY,
        rf"\b(?:switched|changed|moved|transferred|swapped) (?:(?:her|his|their|my|the) )?"
        rf"(?:courses?|majors?|degrees?|programmes?|programs?|subjects?|PhD|thesis|studies"
        rf"|research) (?:over )?(?:to|into|for) {V}",
    ),
    # "a history student", "a second-year law student", "a biology major"
    _p(
        Slot.FIELD_OF_STUDY,
        rf"\b(?:is|am|are|became) (?:now )?(?:a |an )?(?:(?:first|second|third|fourth|final"
        rf"|\d(?:st|nd|rd|th))[- ]year )?(?:(?:part|full)[- ]time )?(?P<v>(?!(?:{_NOT_FIELDS})\b)"
        rf"[a-z][\w-]*(?: [a-z][\w-]*){{0,2}}?) (?:major|student|undergrad(?:uate)?|postgrad"
        rf"|PhD student|PhD candidate|grad student|graduate student|masters? student)\b",
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
    # a partner said without a name: "is in a relationship", "has a girlfriend now"
    _p(
        Slot.RELATIONSHIP_STATUS,
        r"\b(?:is|am|are) (?:now )?in a (?:new |serious |happy |long-distance )?"
        r"(?P<v>relationship)\b(?! with)",
    ),
    _p(
        Slot.RELATIONSHIP_STATUS,
        r"\b(?:has|have|got) (?:a |an )?(?:new )?(?P<v>girlfriend|boyfriend|partner)"
        r"(?! (?:named|called|who)\b)(?=\s*(?:now|[,.!;]|$))",
    ),
    _p(
        Slot.PET,
        rf"\b(?:has|adopted|got|rescued|bought|have) {DET}(?:\w+ )?(?P<q>{PET}) "
        rf"(?:named|called) (?P<v>{NAME})",
    ),
    # "Maya's dog Biscuit loves the beach": the wording presupposes the pet
    _p(Slot.PET, rf"{POSS} (?:\w+ )?(?P<q>{PET}),? (?P<v>{NAME})\b"),
    _p(
        Slot.DIET,
        rf"\b(?:is|went|became|going|gone|eats|eating) (?:now |fully |strictly )?(?:a |an )?"
        rf"(?P<v>{DIETS})\b",
    ),
    _p(Slot.DIET, rf"\bfollows? (?:a |an )?(?P<v>{DIETS}|\w+) diet"),
    # eating meat again is no longer vegetarian ("eats meat again", "is back to eating meat")
    _p(Slot.DIET, rf"\b(?:eats|eating|started eating) (?:some )?(?P<v>{_MEAT})(?: \w+)? again\b"),
    _p(Slot.DIET, rf"\bback (?:on|to eating|to) (?:regular |normal )?(?P<v>{_MEAT})\b"),
    _p(Slot.ALLERGY, rf"\b(?:is |was |became )?allergic to {V}"),
    _p(
        Slot.HEALTH,
        r"\b(?:diagnosed with|has been diagnosed with|suffers from|has) "
        r"(?P<v>asthma|diabetes|migraines|arthritis|celiac disease|anxiety|depression"
        r"|high blood pressure|adhd|eczema|insomnia)",
    ),
    _p(Slot.LANGUAGE, rf"\b(?:speaks|learning|learns|studying|fluent in) (?P<v>{LANGUAGES})\b"),
    # the way to work: "bikes to work", "takes the train to the office", "commutes by bus"
    _p(
        Slot.PREFERENCE,
        r"\b(?P<v>bikes|cycles|walks|drives|runs|scooters) "
        r"(?:in )?to (?:work|the office|school|campus|uni)\b",
        qualifier="commute",
    ),
    _p(
        Slot.PREFERENCE,
        rf"\b(?:takes|taking|rides|riding|gets|getting) (?:the |a |an )?(?P<v>{_MODES}) "
        rf"(?:in )?to (?:work|the office|school|campus|uni)\b",
        qualifier="commute",
    ),
    _p(
        Slot.PREFERENCE,
        rf"\b(?:commutes?|commuting|gets to work|goes to work) (?:by|on) (?:the |a |an )?"
        rf"(?P<v>{_MODES})\b",
        qualifier="commute",
    ),
    _p(Slot.POSSESSION, rf"\bdrives {DET}(?!to\b){V}", qualifier="car"),
    # the thing named by its kind: "Maya's new car is a Tesla", "her phone is an old Pixel"
    _p(
        Slot.POSSESSION,
        rf"(?:{POSS}|\b(?:her|his|their|my|our)) (?:new |current )?(?P<q>{_KINDS}) (?:is|is now)"
        rf" (?:a |an |the )?{V}",
    ),
    # a drink taken: "always takes tea", "has become a flat white person", "switched to decaf"
    _p(
        Slot.PREFERENCE,
        rf"\b(?:takes|drinks|orders|prefers|switched to|changed to|sticks to|only has) (?:a |an "
        rf"|her |his |their )?(?P<v>{DRINKS})\b",
        qualifier="drink",
    ),
    _p(
        Slot.PREFERENCE,
        rf"\b(?:is|am|are|became|has become|have become) (?:now |more of |really |a real |a big )?"
        rf"(?:a |an )?(?P<v>{DRINKS}) (?:person|drinker|fan)\b",
        qualifier="drink",
    ),
    # a language the lessons moved to: "switched their tutor sessions to Cantonese"
    _p(
        Slot.LANGUAGE,
        rf"\b(?:switched|changed|moved) (?:[\w-]+ ){{0,3}}?(?:to|over to) (?P<v>{LANGUAGES})\b",
    ),
    _p(
        Slot.POSSESSION,
        rf"\b(?:has got|have got|bought|got|owns|has|purchased|upgraded to|switched to|rides"
        rf"|is riding) {DET}"
        rf"{KIND_PHRASE}",
    ),
    _p(Slot.PREFERENCE, rf"\b(?:prefers|switched to|now drinks|now uses|changed to) {DET}{V}"),
    _p(Slot.HABIT, r"\b(?P<v>smokes|vapes|smoking|vaping)\b"),
    # "has a glass of wine with dinner most nights", "drinks a beer every evening"
    _p(
        Slot.HABIT,
        r"\b(?:has|have|drinks|enjoys) (?:a |an |one |two |a few )?(?:glass(?:es)? of |pints? of "
        r"|cups? of )?(?P<v>wine|beer|whisky|cocktail|coffee|espresso)s? (?:with|every|each|most"
        r"|before|after)\b",
    ),
    _p(Slot.HOBBY, rf"\bhobby (?:is|has become|is now) (?:now )?{DET}(?P<v>{HOBBIES})\b"),
    # an activity on a schedule: "meditates every evening", "runs most mornings"
    _p(
        Slot.HABIT,
        rf"\b(?P<v>{'|'.join(HABIT_VERBS)})\b(?: [\w ]{{0,30}}?)? (?:every (?:single )?(?:morning"
        r"|evening|night|day)|each (?:morning|evening|night|day)|daily|nightly|most (?:mornings"
        r"|evenings|nights|days))\b",
    ),
    _p(
        Slot.HOBBY,
        r"\b(?:goes|go|going) (?P<v>sailing|kayaking|canoeing|climbing|bouldering|running"
        r"|swimming|cycling|hiking|fishing|surfing|skiing|snowboarding|jogging|skating"
        r"|birdwatching|bowling|dancing|rowing|riding|diving)\b",
    ),
    _p(
        Slot.HOBBY,
        rf"\b(?:took up|taken up|started|plays|picked up|got into|is into|does|practises"
        rf"|practices|loves|enjoys|goes to) {DET}(?P<v>{HOBBIES})\b",
    ),
)

PATTERNS: tuple[ClaimPattern, ...] = TRANSITIONS + VALUES + AMOUNTS
