"""The local claim engine's lexicon: which wording asserts which slot, and which ends one.

Each :class:`ClaimPattern` is a slot, a polarity and a regular expression over a memory's
third-person text with a named group ``v`` (the value) and optionally ``q`` (the qualifier of a
qualified slot) and ``s`` (the subject, when the wording names it: "Maya's favourite colour is").
Patterns are tried in order and the first that matches wins, so the specific forms ("moved out
of", "no longer works at") come before the general ones ("moved", "works at"). Transitions (quit,
left, sold, broke up, passed away, moved out, no longer, not … anymore, stopped, gave up) carry
polarity ``ended`` and close a value even when no new one is said. Words people use for the same
thing are folded by ``KIND_WORDS`` (a possession's kind) and the value trimming in ``claims``.
Pure data; the matching lives in :mod:`kgmem.ingest.claims`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kgmem.taxonomy.slots import Polarity, Slot

# a value: up to the end of the clause; claims.trim_value cuts it at the first boundary word
# ("St. Mary's Hospital": a title's abbreviation does not end the value)
V = r"(?P<v>(?:\b(?:St|Dr|Mt|Ft|Mr|Mrs|Ms|Jr|Sr|Ave|Rd)\.|[^,;.!?()\"])+)"
NAME = r"(?-i:[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)"
_DET = r"(?:(?:a|an|the|his|her|their|its|\w+'s)\s+)?(?:new\s+|current\s+|own\s+)?"
PET_KINDS = (
    r"dog|puppy|cat|kitten|rabbit|bunny|hamster|parrot|bird|fish|turtle|tortoise|horse|guinea pig"
    r"|lizard|snake|ferret|goldfish|pup|budgie|parakeet|canary|cockatiel|gecko|pony|chicken|rat"
)
_PET = rf"(?:{PET_KINDS})"
KIN_WORDS = (
    r"brother|sister|mom|mum|mummy|mother|dad|father|son|daughter|husband|wife|partner|boyfriend|girlfriend"
    r"|fiancée?|friend|cousin|aunt|uncle|grandma|grandmother|grandpa|grandfather|niece|nephew"
    r"|boss|colleague|coworker|roommate|neighbou?r|kid|kids|children|parents|family|team|manager"
)
KIN_RE = re.compile(rf"^(?:{KIN_WORDS})s?$", re.IGNORECASE)

# possession kinds: "drives a Tesla" is a car; the qualifier is the kind, not the brand
KIND_WORDS: dict[str, str] = {
    **dict.fromkeys(("car", "truck", "suv", "van", "sedan", "jeep", "minivan"), "car"),
    **dict.fromkeys(("phone", "iphone", "smartphone", "pixel", "android"), "phone"),
    **dict.fromkeys(("laptop", "macbook", "notebook", "chromebook"), "laptop"),
    **dict.fromkeys(("bike", "bicycle", "motorcycle", "motorbike", "scooter"), "bike"),
    **dict.fromkeys(("house", "home", "apartment", "flat", "condo"), "home"),
    **dict.fromkeys(("watch", "smartwatch"), "watch"),
    **dict.fromkeys(("camera",), "camera"),
    **dict.fromkeys(("tablet", "ipad"), "tablet"),
}
DIETS = (
    r"vegan|vegetarian|pescatarian|keto|paleo|gluten[- ]free|dairy[- ]free|lactose[- ]free"
    r"|plant[- ]based|carnivore|halal|kosher|low[- ]carb"
)
LANGUAGES = (
    r"English|Spanish|French|German|Italian|Portuguese|Mandarin|Chinese|Cantonese|Japanese|Korean"
    r"|Arabic|Hindi|Russian|Dutch|Swedish|Norwegian|Danish|Polish|Turkish|Greek|Hebrew|Vietnamese"
    r"|Thai|Swahili|Tagalog|Urdu|Bengali|Punjabi|Persian|Farsi|Ukrainian|Czech|Finnish|ASL"
    r"|sign language"
)
HOBBIES = (
    r"tennis|golf|chess|guitar|piano|violin|cello|drums|soccer|football|basketball|baseball"
    r"|volleyball|climbing|bouldering|running|swimming|cycling|yoga|pilates|knitting|painting"
    r"|pottery|photography|surfing|skiing|snowboarding|boxing|hiking|gardening|baking|dancing"
    r"|salsa|crossfit|rowing|fencing|badminton|pickleball|karate|judo|jiu[- ]jitsu|ballet"
    r"|marathons?|triathlons?|the gym|band|choir|book club"
)
# "may" in lower case only: "the 3rd of May" is a date, not a maybe
HYPOTHETICAL_RE = re.compile(
    r"\b(?:might|(?-i:may)|could|would|should|if|unless|maybe|perhaps|possibly|considering"
    r"|thinking (?:about|of)|wondering|hoping to|dreams? of|someday|one day|wants? to|wish"
    r"|planning to|plans? to|going to|about to|whether)\b",
    re.IGNORECASE,
)
ADDITIVE_RE = re.compile(r"\b(?:also|too|as well|another|second|additional|extra)\b", re.IGNORECASE)


@dataclass(frozen=True)
class ClaimPattern:
    slot: Slot
    polarity: Polarity
    regex: re.Pattern[str]
    qualifier: str = ""  # a fixed qualifier, when the wording implies it ("drives" → car)
    hypothetical_ok: bool = False  # goals and plans are stated with "want to", "plan to"


def _p(
    slot: Slot, text: str, *, ended: bool = False, qualifier: str = "", plans: bool = False
) -> ClaimPattern:
    polarity = Polarity.ENDED if ended else Polarity.HOLDS
    return ClaimPattern(slot, polarity, re.compile(text, re.IGNORECASE), qualifier, plans)


_S = rf"(?P<s>{NAME})'s"  # a possessive subject: "Maya's favourite colour is ..."
_NOW = r"(?:now |currently |actually |officially |finally )?"
_NOT_ANYMORE = r"(?:no longer|not|n't|never)\b"
_AGE_HOLDER = rf"(?:\b{NAME}|\b(?:he|she|they|i))"
_BARE_NUMBER = r"\b(?![-./:,]?\d)(?!\s*(?:%|minutes|hours|days|weeks|percent))"

PATTERNS: tuple[ClaimPattern, ...] = (
    # --- transitions: a value ends -------------------------------------------------------------
    _p(Slot.RESIDENCE, rf"\bmoved (?:out of|away from) {_DET}{V}", ended=True),
    _p(
        Slot.EMPLOYER,
        rf"\b(?:left|quit|resigned from|was laid off from|was fired from"
        rf"|got laid off from|stopped working (?:at|for)) "
        rf"(?:(?:her|his|their|a|the) job (?:at|with) )?"
        rf"(?P<v>{NAME})",
        ended=True,
    ),
    _p(Slot.EMPLOYER, r"\b(?:left|quit) (?:her|his|their|the) (?P<v>job)\b", ended=True),
    _p(
        Slot.EMPLOYER,
        rf"\b{_NOT_ANYMORE} (?:\w+ )?(?:work|works|working) (?:at|for) {V}",
        ended=True,
    ),
    _p(
        Slot.PARTNER,
        rf"\b(?:broke up with|split (?:up )?with|divorced|separated from|"
        rf"dumped|left (?:her|his|their) (?:husband|wife|partner|boyfriend|girlfriend),?) {V}",
        ended=True,
    ),
    _p(Slot.PARTNER, r"\b(?P<v>broke up|split up|got divorced|are separated)\b", ended=True),
    _p(
        Slot.PET,
        rf"\b(?:{_PET}),? (?P<v>{NAME}),? (?:has )?(?:passed away|died|was put down"
        r"|was rehomed|ran away)",
        ended=True,
    ),
    _p(
        Slot.PET,
        rf"\b(?P<v>{NAME}) (?:has )?(?:passed away|died|was put down|was rehomed|ran away)",
        ended=True,
    ),
    _p(Slot.PET, rf"\b(?:lost|rehomed|gave away) {_DET}(?:{_PET}),? (?P<v>{NAME})", ended=True),
    # "rehomed the budgies", "gave Sheldon to the reptile rescue": a pet or a named thing handed on
    _p(Slot.PET, rf"\b(?:rehomed|gave away) {_DET}(?P<v>(?:\w+ )?(?:{_PET})s?)\b", ended=True),
    _p(Slot.PET, rf"\bgave (?P<v>{NAME}) (?:away|to)\b", ended=True),
    _p(
        Slot.POSSESSION,
        rf"\b(?:sold|got rid of|gave away|traded in|totaled|totalled|returned) "
        rf"{_DET}{V}",
        ended=True,
    ),
    _p(Slot.DIET, rf"\b{_NOT_ANYMORE} (?:a )?(?P<v>{DIETS})\b", ended=True),
    _p(
        Slot.DIET,
        rf"\b(?:stopped being|quit being|gave up being) (?:a )?(?P<v>{DIETS})",
        ended=True,
    ),
    _p(Slot.ALLERGY, rf"\b{_NOT_ANYMORE} (?:actually )?allergic to {V}", ended=True),
    _p(Slot.ALLERGY, rf"\b(?:allergy|intolerance) to {V} (?:was|has been) ruled out", ended=True),
    _p(Slot.ALLERGY, rf"\bruled out {_DET}(?:\w+ )?(?:allergy|intolerance) to {V}", ended=True),
    _p(
        Slot.SCHOOL,
        rf"\b(?:dropped out of|withdrew from|was expelled from) {_DET}{V}",
        ended=True,
    ),
    _p(Slot.NICKNAME, rf"\b{_NOT_ANYMORE} (?:goes|go|going) by {V}", ended=True),
    _p(Slot.NICKNAME, rf"\b(?:stopped|quit) (?:going by|using the nickname) {V}", ended=True),
    _p(
        Slot.HABIT,
        r"\b(?:quit|stopped|gave up|kicked) (?P<v>smoking|vaping|drinking(?: \w+)?"
        r"|caffeine|coffee|alcohol|sugar|biting \w+ nails|cigarettes)",
        ended=True,
    ),
    _p(
        Slot.HABIT,
        rf"\b{_NOT_ANYMORE} (?P<v>smokes?|smoking|vapes?|vaping|drinks?(?: \w+)?)\b",
        ended=True,
    ),
    _p(
        Slot.HOBBY,
        rf"\b(?:quit|stopped|gave up) (?:playing |doing |going )?(?P<v>{HOBBIES})\b",
        ended=True,
    ),
    # --- values ---------------------------------------------------------------------------------
    _p(
        Slot.FAVOURITE,
        rf"{_S} (?:new |all-time |current )?favou?rite (?P<q>[\w ]+?) (?:is|are"
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
    _p(Slot.RESIDENCE, rf"\b(?:moved|relocated|moving|moves) (?:back )?(?:to|into) {_DET}{V}"),
    _p(Slot.RESIDENCE, rf"\b(?:lives|living|live|resides|based|settled) (?:now )?in {V}"),
    _p(Slot.RESIDENCE, rf"\b(?:new )?(?:apartment|place|house|home|flat) (?:is )?in {V}"),
    _p(Slot.RESIDENCE, rf"\b(?:is|am|are) (?:now )?(?:a )?(?P<v>{NAME}) resident\b"),
    _p(
        Slot.JOB_TITLE,
        rf"\b(?:was promoted to|got promoted to|promoted to|new role as|new job as"
        rf"|works as|working as|work as|started as|hired as|became) {_DET}{V}",
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
        rf"\b(?:has|adopted|got|rescued|bought|have) {_DET}(?:\w+ )?(?P<q>{_PET}) "
        rf"(?:named|called) (?P<v>{NAME})",
    ),
    # "Maya's dog Biscuit loves the beach": the wording presupposes the pet
    _p(Slot.PET, rf"{_S} (?:\w+ )?(?P<q>{_PET}),? (?P<v>{NAME})\b"),
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
    _p(Slot.POSSESSION, rf"\bdrives {_DET}{V}", qualifier="car"),
    _p(
        Slot.POSSESSION,
        rf"\b(?:bought|got|owns|has|purchased|upgraded to|switched to) {_DET}"
        r"(?P<v>[^,;.!?()\"]*?\b(?:" + "|".join(KIND_WORDS) + r")\b[^,;.!?()\"]*)",
    ),
    _p(Slot.PREFERENCE, rf"\b(?:prefers|switched to|now drinks|now uses|changed to) {_DET}{V}"),
    _p(Slot.HABIT, r"\b(?P<v>smokes|vapes|smoking|vaping)\b"),
    _p(
        Slot.HOBBY,
        rf"\b(?:took up|started|plays|picked up|got into|is into) {_DET}"
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
