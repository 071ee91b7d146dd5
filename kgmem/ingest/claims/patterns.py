"""The local claim engine's patterns: which wording asserts which slot, and which ends one.

Each :class:`~kgmem.ingest.claims.lexicon.ClaimPattern` is a slot, a polarity and a regular
expression over a memory's third-person text with a named group ``v`` (the value) and optionally
``q`` (the qualifier of a qualified slot) and ``s`` (the subject, when the wording names it:
"Maya's favourite colour is"). ``PATTERNS`` is the transitions
(:mod:`kgmem.ingest.claims.transitions`), the values here, habits and pastimes
(:mod:`kgmem.ingest.claims.habits`), then the amounts and plans
(:mod:`kgmem.ingest.claims.amounts`), tried in order: the specific
forms ("moved out of", "no longer works at") come before the general ones ("moved", "works at").
Words people use for the same thing are folded by the lexicon (``KIND_WORDS``) and the value
trimming in ``claims``. Pure data; the matching lives in :mod:`kgmem.ingest.claims.engine`.
"""

from __future__ import annotations

from kgmem.ingest.claims.amounts import AMOUNTS
from kgmem.ingest.claims.habits import HABITS
from kgmem.ingest.claims.lexicon import (
    CAP_NAME,
    DET,
    DIETS,
    DRINKS,
    KIND_PHRASE,
    KINDS,
    LANGUAGES,
    MEAT_WORDS,
    NAME,
    PET,
    POSS,
    ClaimPattern,
    V,
)
from kgmem.ingest.claims.lexicon import pattern as _p
from kgmem.ingest.claims.transitions import TRANSITIONS
from kgmem.ingest.claims.work import WORK
from kgmem.taxonomy.slots import Slot

_FAV = r"(?:new |current |all-time |absolute |top )?(?:favou?rite|fave|go-to|comfort)"
_IS_NOW = r"(?:\bis|\bhas been|['’]s been|\bhas become) (?:now |still )?"
_FOOD_DIETS = (("meat", "vegetarian"), ("dairy", "dairy-free"), ("gluten", "gluten-free"))
_MEAT = "|".join(MEAT_WORDS)
_MODES = r"train|bus|tube|subway|metro|tram|ferry|bike|car|scooter|foot"
# not a field: "a high school student", "a PhD student", "an exchange student"
_AGE_HOLDER = rf"(?:\b{NAME}|\b(?:he|she|they|i))"
# a person moving, not a thing moved: "the meeting was moved to the main hall"
_ACTIVE = r"(?<!\bwas )(?<!\bwere )(?<!\bbeen )(?<!\bbe )(?<!\bgot )(?<!\bbeing )"
_BARE_NUMBER = r"\b(?![-./:,]?\d)(?!\s*(?:%|minutes|hours|days|weeks|percent))"

VALUES: tuple[ClaimPattern, ...] = (
    _p(Slot.FAVOURITE, rf"{POSS} {_FAV} (?P<q>[\w ]+?) (?:is|are|has become|became) (?:now )?{V}"),
    _p(Slot.FAVOURITE, rf"\b{_FAV} (?P<q>[\w ]+?) (?:is|are|has become|became) (?:now )?{V}"),
    # the value first: "Queen is still Ravi's favourite band", "sushi has become Maya's go-to
    # lunch", "The Office is Leila's comfort show"
    _p(
        Slot.FAVOURITE,
        rf"(?:\bis|\bare|['’]s|\bhas become|\bhave become|\bbecame|\b(?:has )?replaced [\w ]+? as)"
        rf" (?:now |still |officially "
        rf"|definitely |really |easily )?{POSS} {_FAV}(?: (?P<q>[a-z][\w-]*(?: [a-z][\w-]*)?))?",
        before=True,
    ),
    # an appositive: "Queen, Ravi's favourite band, ..."
    _p(
        Slot.FAVOURITE,
        rf"(?P<v>{NAME}),? {POSS} (?:new |all-time |current )?favou?rite "
        rf"(?P<q>[a-z]+(?: [a-z]+)?)[,)]",
    ),
    # a team one supports is one's favourite team
    _p(
        Slot.FAVOURITE,
        rf"\b(?:supports|roots for|cheers for|is (?:now )?an? (?:\w+ )?(?P<v2>{NAME}) supporter)"
        rf"(?: (?:the )?(?P<v>{NAME})\b(?!['’]))?",
        qualifier="team",
    ),
    _p(
        Slot.BIRTHDAY,
        rf"\bbirthday (?:is|falls) (?:actually |really |now )?(?:on |in )?"
        rf"(?!(?:actually|really)\b){V}",
    ),
    _p(Slot.BIRTHDAY, rf"\bwas born on {V}"),
    _p(
        Slot.NICKNAME,
        rf"\b(?:goes by|go by|going by|prefers to be called|likes to be called"
        rf"|nickname is) {V}",
    ),
    # "Everyone calls Rebecca Bex", "Robert's friends call Robert Bobby" (one first name, then
    # the name used)
    _p(
        Slot.NICKNAME,
        r"\bcalls? (?P<s>(?-i:[A-Z][\w-]*)) (?!(?-i:Monday|Tuesday|Wednesday|Thursday|Friday"
        r"|Saturday|Sunday)\b)(?P<v>(?-i:[A-Z][\w-]*))(?=\s*(?:[,.;:!?)]|$|now\b|these\b"
        r"|because\b|since\b|and\b|but\b))",
    ),
    _p(
        Slot.NAME,
        rf"\b(?:changed (?:her|his|their) (?:sur|last )?name to|(?:legal|new|sur|last|family)"
        rf" ?name is) {V}",
    ),
    # an age right after the person it is of ("Maya is 29", "she just turned 30"): "Alice's phone
    # number is 555-1234" or "the score is 120" is a thing's number, and "her son is 7 now" is
    # the son's age, which this subject-less reading would give to the speaker
    _p(Slot.AGE, _AGE_HOLDER + r" (?:is|turned|just turned) (?P<v>\d{1,3}) (?:years old|now|this)"),
    _p(Slot.AGE, _AGE_HOLDER + r" (?:is|turned|just turned) (?P<v>\d{1,3})" + _BARE_NUMBER),
    # a dwelling somewhere: the place, not the flat ("moved into a flat in Leeds")
    _p(
        Slot.RESIDENCE,
        rf"{_ACTIVE}\b(?:moved|relocated|moving|moves) (?:back )?(?:in)?to {DET}(?:[\w-]+ ){{0,2}}?"
        rf"(?:flat|apartment|house|place|condo|studio|home|loft|cottage|bungalow|townhouse)"
        rf" (?:in|on|near) {V}",
    ),
    _p(
        Slot.RESIDENCE,
        rf"{_ACTIVE}\b(?:moved|relocated|moving|moves) (?:back )?(?:to|into) {DET}{V}",
    ),
    _p(
        Slot.RESIDENCE,
        rf"\b(?:lives|living|live|resides|based|settled) (?:now )?(?:with [\w'’ ]{{1,30}}? )?"
        rf"in {V}",
    ),
    _p(Slot.RESIDENCE, rf"\bmoved (?:back )?home to {V}"),
    # the move said as when something began: "since relocating to Montreal", "since the move to
    # Glasgow I've been walking to work" (the place is the name after "to", not the clause on)
    _p(
        Slot.RESIDENCE,
        rf"\b(?:since|after) (?:relocating|moving|(?:the|our|my|her|his|their) (?:move|relocation))"
        rf" to {CAP_NAME}",
    ),
    _p(
        Slot.RESIDENCE,
        rf"\bis where (?P<s>{NAME}) (?:now )?(?:lives|is living|is based)\b",
        before=True,
    ),
    # one's own dwelling in a named place: "their new flat in Leeds", "got my own apartment in
    # Bangalore"; not "a place in London" (a visit) or "a place in the world"
    _p(
        Slot.RESIDENCE,
        rf"(?:\b(?:my|her|his|their|our|new|own)|['’]s) (?:new |own )?(?:apartment|place|house"
        rf"|home|flat|address) (?:is )?in {CAP_NAME}",
    ),
    _p(Slot.RESIDENCE, rf"\b(?:is|am|are) (?:now )?(?:a )?(?P<v>{NAME}) resident\b"),
    _p(Slot.RESIDENCE, rf"\bcalls? (?P<v>{NAME}) home\b"),
    # the place first: "Berlin has been home for Priya for years", "Lisbon is Ana's home now"
    _p(Slot.RESIDENCE, rf"{_IS_NOW}{POSS} (?:new )?home\b", before=True),
    _p(Slot.RESIDENCE, rf"{_IS_NOW}home for (?P<s>{NAME})\b", before=True),
    _p(Slot.RESIDENCE, rf"\bhome for (?P<s>{NAME}) is (?:now )?{V}"),
    *WORK,
    # engaged or married to someone is a status first: "engaged to Marco" then "got married" is
    # the change; the partner's name stays in the memory's text
    _p(
        Slot.RELATIONSHIP_STATUS,
        rf"\b(?:is |are |got |just got )?(?P<v>married|engaged) to (?={NAME})",
    ),
    _p(
        Slot.PARTNER,
        rf"\b(?:is |got )?(?:dating|in a relationship with) {V}",
    ),
    # "Maya's husband and Maya have been together for ten years": married, the partner unnamed
    _p(
        Slot.RELATIONSHIP_STATUS,
        rf"\b(?P<v>husband|wife|boyfriend|girlfriend|partner) and (?:{NAME}|I|me) (?:have|['’]ve"
        rf"|are|have been|['’]ve been|were) (?:been )?(?:together|married)\b",
    ),
    # "seeing" is dating only after a verb of its own and with a person: "has been seeing Tom",
    # "started seeing someone"; not "seeing how happy they were", "seeing Smoky Mountains"
    _p(
        Slot.PARTNER,
        rf"\b(?:is|are|am|been|started|starts|began|['’]s) seeing (?P<v>{NAME}|someone(?: new)?"
        rf"|somebody)\b(?! (?-i:[A-Z]))",
    ),
    _p(
        Slot.PARTNER,
        rf"\b(?:boyfriend|girlfriend|partner|husband|wife|fiancée?),? (?:is )?(?P<v>{NAME})",
    ),
    # the partner's name said as such: "Aroha's wife is called Anna", "her husband's name is Raj"
    _p(
        Slot.PARTNER,
        rf"\b(?:boyfriend|girlfriend|partner|husband|wife|fiancée?)(?:['’]s name is| is called"
        rf"| is named| goes by) (?P<v>{NAME})",
    ),
    _p(
        Slot.RELATIONSHIP_STATUS,
        r"\b(?:is|are) (?:now |officially )?(?P<v>single|married|engaged|divorced|widowed)\b",
    ),
    _p(Slot.PARTNER, rf"\b(?:just )?married (?P<v>{NAME})\b"),
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
        rf"\b(?:has|adopted|got|rescued|bought|have|keeps?|owns?|took in|taken in|taking in"
        rf"|brought home) {DET}"
        rf"(?:\w+ )?"
        rf"(?P<q>{PET}|tom|tomcat|tabby|mutt)(?: named| called|,) (?P<v>{NAME})",
    ),
    # an animal taken in, whatever its kind: "brought home a new rescue, a whippet called Lola"
    # (a child adopted is no pet)
    _p(
        Slot.PET,
        r"\b(?:adopted|rescued|took in|taken in|brought home) (?!(?:[\w-]+,? ){0,4}?(?:baby"
        r"|babies|girl|boy|son|daughter|child|children|kid|kids|twins?)\b)(?:[\w-]+,? ){1,5}?"
        rf"(?:named|called) (?P<v>{NAME})",
    ),
    # "Emeka's dog is called Pickles", "Olive, Felix's cat, knocked a glass over"
    _p(Slot.PET, rf"{POSS} (?:\w+ )?(?P<q>{PET}) is (?:called|named) (?P<v>{NAME})\b"),
    _p(Slot.PET, rf"(?P<v>{NAME}), {POSS} (?:\w+ )?(?P<q>{PET})\b"),
    # "Maya's dog Biscuit loves the beach": the wording presupposes the pet
    _p(
        Slot.PET,
        rf"{POSS} (?:\w+ )?(?P<q>{PET}),? (?P<v>{NAME})\b(?!,? (?:has )?(?:passed away|died|was put"
        rf" down|was rehomed|ran away))",
    ),
    _p(
        Slot.DIET,
        rf"\b(?:is|went|became|going|gone|eats|eating|has been|['’]s been|have been) (?:now |fully "
        rf"|strictly )?(?:a |an )?"
        rf"(?P<v>{DIETS})\b",
    ),
    _p(Slot.DIET, rf"\bfollows? (?:a |an )?(?P<v>{DIETS}|\w+) diet"),
    _p(Slot.DIET, rf"\b(?:is |went )?on (?:a |an )?(?:strict )?(?P<v>{DIETS}) diet"),
    _p(Slot.DIET, rf"\b(?:does|doing|started) (?:a |an )?(?:strict )?(?P<v>{DIETS})\b"),
    # no diet: "eats pretty much everything", "has no dietary restrictions"
    _p(
        Slot.DIET,
        r"\b(?:eats (?:pretty much |basically |just about )?(?P<v>everything|anything)"
        r"|(?:has )?no dietary (?P<v2>restrictions))\b",
        value="omnivore",
    ),
    # eating meat again is no longer vegetarian ("eats meat again", "is back to eating meat")
    _p(Slot.DIET, rf"\b(?:eats|eating|started eating) (?:some )?(?P<v>{_MEAT})(?: \w+)? again\b"),
    _p(Slot.DIET, rf"\bback (?:on|to eating|to) (?:regular |normal )?(?P<v>{_MEAT})\b"),
    _p(Slot.ALLERGY, rf"\b(?:is |was |became )?allergic to {V}"),
    # "has a lactose intolerance", "has a bad peanut allergy", "is lactose intolerant"
    _p(
        Slot.ALLERGY,
        r"\b(?:has|have) (?:a |an )?(?:severe |mild |bad |serious )?(?P<v>[\w-]+ (?:intolerance"
        r"|allergy))\b",
    ),
    _p(Slot.ALLERGY, r"\b(?:is|am|are) (?P<v>[\w-]+) intolerant\b"),
    _p(
        Slot.HEALTH,
        r"\b(?:diagnosed with|has been diagnosed with|suffers from|has|dealing with|struggling"
        r" with|battling|living with) (?P<v>asthma|diabetes|migraines|arthritis|celiac disease"
        r"|anxiety|depression|high blood pressure|adhd|eczema|insomnia)",
    ),
    _p(Slot.HEALTH, rf"\b(?:diagnosed with|has been diagnosed with|suffers from) {V}"),
    _p(
        Slot.LANGUAGE,
        rf"\b(?:speaks|learning|learns|studying|fluent in|practising|practicing) (?:fluent |some "
        rf"|a bit of |basic |good "
        rf"|decent |conversational )?(?P<v>{LANGUAGES})\b",
    ),
    # the way to work: "bikes to work", "takes the train to the office", "commutes by bus"
    _p(
        Slot.PREFERENCE,
        r"\b(?P<v>bikes|cycles|walks|drives|runs|scooters) "
        r"(?:in )?to (?:work|the office|school|campus|uni)\b",
        qualifier="commute",
    ),
    # said as the doing that opens a sentence: "Cycling to work has been great since ..."
    _p(
        Slot.PREFERENCE,
        r"(?:^|(?<=[.!?;:] ))(?P<v>biking|cycling|walking|driving) (?:in )?to (?:work|the office"
        r"|school|campus|uni)\b",
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
    # an instrument of one's own ("plays an old Yamaha guitar"; "plays the guitar" is a pastime)
    _p(Slot.POSSESSION, rf"\bplays (?:an? |her |his |their |my ){KIND_PHRASE}"),
    # "has become an iPhone person", "is a Mac user"
    _p(
        Slot.POSSESSION,
        rf"\b(?:is|am|are|became|has become|have become) (?:now |more of |really )?(?:a |an )?"
        rf"(?!(?:{DRINKS}) ){KIND_PHRASE} (?:person|user|fan)\b",
    ),
    # the thing named by its kind: "Maya's new car is a Tesla", "her phone is an old Pixel"
    _p(
        Slot.POSSESSION,
        rf"(?:{POSS}|\b(?:her|his|their|my|our)) (?:new |current )?(?P<q>{KINDS}) (?:is|is now)"
        rf" (?!(?:in|on|at|near|by|so|too|very|really|broken|dead)\b)(?:a |an |the )?{V}",
    ),
    # a new one of a kind replaces the one held: "Maya's new Pixel 8 takes great photos",
    # "loving my new Tesla" (not "new to me", "new car smell" is still the car)
    _p(
        Slot.POSSESSION,
        rf"(?:{POSS}|\b(?:her|his|their|my|our)) (?:brand[- ])?new (?!to\b)"
        rf"(?P<v>(?:[\w'’-]+ ){{0,3}}?(?:{KINDS})\b(?: (?:\d[\w.]*|(?-i:[A-Z][\w-]*)|pro|max|mini"
        rf"|plus|air|ultra|lite)\b)?)",
    ),
    # coffee or tea taken black is taken with no milk: "drinks their coffee black now"
    _p(
        Slot.PREFERENCE,
        r"\b(?:takes|drinks|has|prefers|likes|switched to|now drinks|only drinks) (?:their |her "
        r"|his |my )?(?:coffee|tea) (?P<v>black)\b",
        qualifier="milk",
    ),
    _p(
        Slot.PREFERENCE,
        r"\b(?:switched to|prefers|only drinks|now drinks|sticks to) (?P<v>black) (?:coffee|tea)\b",
        qualifier="milk",
    ),
    # a drink taken: "always takes tea", "has become a flat white person", "switched to decaf"
    _p(
        Slot.PREFERENCE,
        rf"\b(?:takes|drinks|orders|prefers|switched to|changed to|sticks to|only has) (?:a |an "
        rf"|her |his |their )?(?:(?:about|around|up to|\w+) ){{0,2}}?(?P<v>{DRINKS})s?\b"
        # "drinks four coffees a day" is a rate (a quantity), not which drink
        r"(?! (?:a|per|each|every) (?:day|night|week|month)\b)",
        qualifier="drink",
    ),
    _p(
        Slot.PREFERENCE,
        rf"\b(?:is|am|are|became|has become|have become) (?:now |more of |really |a real |a big )?"
        rf"(?:a |an )?(?P<v>{DRINKS}) (?:person|drinker|fan)\b",
        qualifier="drink",
    ),
    _p(
        Slot.LANGUAGE,
        rf"\b(?:taking|takes|has|started|doing) (?:weekly |evening |private |online )?"
        rf"(?P<v>{LANGUAGES}) (?:lessons|classes|courses?)\b",
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
    _p(
        Slot.PREFERENCE,
        rf"\b(?:prefers|switched (?:from [\w -]+? )?to|now drinks|now uses|changed to) {DET}{V}",
    ),
)

PATTERNS: tuple[ClaimPattern, ...] = TRANSITIONS + VALUES + HABITS + AMOUNTS
