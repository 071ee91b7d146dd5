"""The claim lexicon: the words and regular-expression fragments the claim patterns are built of.

Word lists (pet kinds, kin words, possession kinds, diets, languages, hobbies, occupations), the
fragments every pattern shares (a value ``V``, a capitalised ``NAME``, a determiner ``DET``, a
possessive subject ``POSS``, a negation ``NOT_ANYMORE``), the hypothetical and additive cues, and
:class:`ClaimPattern` with its constructor ``pattern``. The patterns themselves are
:mod:`kgmem.ingest.claims.transitions` (a value ends) and :mod:`kgmem.ingest.claims.patterns` (a
value holds). Pure data, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kgmem.core.text import GOING_TO, word_set
from kgmem.taxonomy.slots import Polarity, Slot

# a value: up to the end of the clause; claims.trim_value cuts it at the first boundary word
# ("St. Mary's Hospital": a title's abbreviation does not end the value)
V = r"(?P<v>(?:\b(?:St|Dr|Mt|Ft|Mr|Mrs|Ms|Jr|Sr|Ave|Rd)\.|[^,;.!?()\"])+)"
NAME = r"(?-i:[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)"
DET = r"(?:(?:a|an|the|his|her|their|its|\w+'s)\s+)?(?:new\s+|current\s+|own\s+)?"
PET_KINDS = (
    r"dog|puppy|cat|kitten|rabbit|bunny|hamster|parrot|bird|fish|turtle|tortoise|horse|guinea pig"
    r"|lizard|snake|ferret|goldfish|pup|budgie|parakeet|canary|cockatiel|gecko|pony|chicken|rat"
)
PET = rf"(?:{PET_KINDS})"
KIN_WORDS = (
    r"brother|sister|mom|mum|mummy|mother|dad|father|son|daughter|husband|wife|partner|boyfriend|girlfriend"
    r"|fiancée?|friend|cousin|aunt|uncle|grandma|grandmother|grandpa|grandfather|niece|nephew"
    r"|boss|colleague|coworker|roommate|neighbou?r|kid|kids|children|parents|family|team|manager"
)
KIN_RE = re.compile(rf"^(?:{KIN_WORDS})s?$", re.IGNORECASE)

# possession kinds: "drives a Tesla" is a car; the qualifier is the kind, not the brand
KIND_WORDS: dict[str, str] = {
    **dict.fromkeys(("car", "truck", "suv", "van", "sedan", "jeep", "minivan", "hatchback"), "car"),
    # a make or model people name their car by ("an old Toyota Corolla", "drives a Prius")
    **dict.fromkeys(
        word_set(
            "toyota honda ford tesla bmw audi volkswagen vw fiat kia hyundai nissan subaru mazda "
            "volvo mercedes chevy chevrolet peugeot renault skoda porsche lexus prius corolla civic"
        ),
        "car",
    ),
    **dict.fromkeys(("phone", "iphone", "smartphone", "pixel", "android"), "phone"),
    **dict.fromkeys(("laptop", "macbook", "notebook", "chromebook", "thinkpad"), "laptop"),
    **dict.fromkeys(
        word_set("bike bicycle motorcycle motorbike scooter e-bike ebike vespa moped harley"),
        "bike",
    ),
    **dict.fromkeys(("house", "home", "apartment", "flat", "condo"), "home"),
    **dict.fromkeys(("watch", "smartwatch"), "watch"),
    **dict.fromkeys(("camera",), "camera"),
    **dict.fromkeys(("tablet", "ipad"), "tablet"),
    **dict.fromkeys(("console", "playstation", "ps4", "ps5", "xbox", "nintendo"), "console"),
    **dict.fromkeys(("kindle", "e-reader", "ereader"), "e-reader"),
    # an instrument one owns: one of each kind ("upgraded to a Martin guitar" replaces the old one)
    **{w: w for w in word_set("guitar piano violin cello ukulele saxophone")},
}
KINDS = "|".join(re.escape(k) for k in KIND_WORDS)
# what a vegetarian does not eat ("eats meat again", "favourite dinner is chicken tikka")
MEAT_WORDS = ("meat", "chicken", "beef", "pork", "steak", "burgers", "fish", "bacon", "lamb")
# a possession named by its kind or make, a few words after the verb: "an old Toyota Corolla",
# "their PS5"; never across "at"/"for" ("a job at Toyota" is no car)
KIND_PHRASE = (
    r"(?P<v>(?:(?!(?:at|for|from|with|in|of|to|on|become|became|been|got|is|was|a|an)\b)"
    r"[\w'’-]+ ){0,4}?"
    rf"(?:{KINDS})\b"
    r"(?: (?!(?:finally|just|was|got|is|has|had|died|broke|to|away|stolen)\b)[\w-]+)?)"
)
# occupations: "Maya is a nurse", "As a sales associate, ...". Words that as often name a trait
# or a pastime ("a good cook", "a careful driver", "a keen baker") are left out or need a compound.
JOBS = (
    r"engineer|developer|programmer|designer|nurse|doctor|physician|surgeon|dentist|pharmacist"
    r"|teacher|professor|lecturer|principal|headteacher|lawyer|attorney|solicitor|barrister"
    r"|paralegal|accountant|bookkeeper|analyst|consultant|manager|director|supervisor"
    r"|coordinator|administrator|assistant|associate|clerk|cashier|barista|bartender|waiter"
    r"|waitress|chef|electrician|plumber|carpenter|mechanic|technician|architect|scientist"
    r"|researcher|chemist|biologist|physicist|economist|journalist|reporter|editor|copywriter"
    r"|librarian|pilot|firefighter|paramedic|police officer|detective|therapist|psychologist"
    r"|psychiatrist|counsell?or|social worker|vet|veterinarian|receptionist|secretary"
    r"|realtor|estate agent|broker|banker|intern|apprentice|founder|co-founder|ceo|cto|cfo"
    r"|vp|specialist|strategist|recruiter|caregiver|carer|nanny|midwife|optometrist"
    r"|radiographer|hygienist|dietitian|nutritionist|translator|interpreter|illustrator"
    r"|animator|producer|curator|archivist|surveyor|auditor|actuary|statistician|team lead"
    r"|tech lead|project lead|salesperson|sales rep|representative|officer|executive"
    r"|taxi driver|bus driver|truck driver|delivery driver|pastry chef|sous chef|line cook"
    r"|head of (?!the\b)[a-z]+"
    # a doctor in training ("a resident in pediatrics"), not one who lives somewhere
    r"|resident(?= (?:in|at|doctor|physician)\b)"
)
# words that make "a <job>" a trait or a pastime: "an amateur photographer", "a great teacher"
_NOT_A_JOB = (
    r"amateur|keen|avid|hobby|aspiring|wannabe|would-be|budding|good|great|bad|terrible"
    r"|natural|born|big|huge|former|ex|retired|trainee|future|the|a|an|this|that|with|about"
    r"|to|by|from|on|into|than|like|so|very|really|not|no|never|always|also|just|her|his"
    r"|their|my|our|your|its|happy|sad|tired|done|such|what|who|how|one|two|three|four|five"
    r"|six|seven|eight|nine|ten|eleven|twelve|\d+"
    # verbs of what one does with someone ("is gonna take the assistant's advice", "is asking
    # her manager"): the noun after them is a person dealt with, not a title held
    r"|gonna|going|wanna|gotta|take|taking|ask|asking|tell|telling|thank|thanking|meet|meeting"
    r"|see|seeing|email|emailing|call|calling|contact|contacting|hire|hiring|need|needs|want"
    r"|wants|help|helping"
)
# a title, not a possessor ("the assistant's advice", "the doctor's office")
JOB_PHRASE = (
    rf"(?P<v>(?:(?!(?:{_NOT_A_JOB}|and|or|of|at|for|in)\b)[\w-]+ ){{0,3}}?(?:{JOBS}))s?\b"
    r"(?!['’])"
)
# a proper name as a value, up to its last capitalised word: "St. Mary's Hospital", "Bank of
# America", "Google" (not "Google is great")
CAP_NAME = (
    r"(?:the )?(?P<v>(?-i:(?:(?:St|Dr|Mt)\.\s)?[A-Z][\w'’&-]*(?:\s+(?:of\s+|&\s+|de\s+)?"
    r"[A-Z][\w'’&-]*)*))"
)
# a named school: "Lincoln High", "the University of Leeds", "Santa Monica College"
_SCHOOL = (
    r"(?-i:(?:the\s+)?(?:[A-Z][\w.'’-]*\s+){0,4}(?:University|College|School|High|Academy"
    r"|Institute|Polytechnic|Conservatory|Uni)\b|(?:the\s+)?University\s+of\b)"
)
SCHOOL_NAME = rf"(?={_SCHOOL}){CAP_NAME}"
NOT_SCHOOL = rf"(?!{_SCHOOL})"
DIETS = (
    r"vegan|vegetarian|pescatarian|keto|paleo|gluten[- ]free|dairy[- ]free|lactose[- ]free"
    r"|plant[- ]based|carnivore|halal|kosher|low[- ]carb|intermittent fasting"
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
    r"|marathons?|triathlons?|the gym|band|choir|book club|sailing|kayaking|canoeing|rugby"
    r"|cricket|hockey|netball|squash|softball|lacrosse|skateboarding|diving|scuba diving"
    r"|birdwatching|bird watching|woodworking|crochet|crocheting|sewing|quilting|embroidery"
    r"|calligraphy|drawing|sketching|singing|archery|taekwondo|kickboxing|martial arts"
    r"|tai chi|zumba|spinning|weightlifting|powerlifting|jogging|trail running|ice skating"
    r"|skating|horse riding|riding|bowling|darts|fishing|rock climbing|meditation|video games"
    r"|gaming|board games|ceramics|improv|acting|mountain biking|triathlon training"
)
# conditions one has and gets over: "diagnosed with asthma", "the insomnia is finally gone"
CONDITIONS = (
    r"asthma|diabetes|migraines|arthritis|celiac disease|anxiety|depression|high blood pressure"
    r"|adhd|eczema|insomnia|cold|flu|cough|rash|headaches|back pain|fever|infection"
)
# ways to work that name the work place: "bikes to work", "takes the train to the office"
COMMUTE_MODES: dict[str, str] = {
    **dict.fromkeys(("bike", "bikes", "biking", "cycle", "cycles", "cycling"), "bike"),
    **dict.fromkeys(("walk", "walks", "walking", "foot"), "foot"),
    **dict.fromkeys(("drive", "drives", "driving", "car"), "car"),
    **dict.fromkeys(("run", "runs", "running"), "running"),
    **{m: m for m in ("train", "bus", "tube", "subway", "metro", "tram", "ferry", "scooter")},
}
# an activity done on a schedule, as the habit's name: "meditates every evening"
HABIT_VERBS: dict[str, str] = {
    "meditates": "meditation", "runs": "running", "jogs": "jogging", "swims": "swimming",
    "journals": "journaling", "reads": "reading", "prays": "prayer", "stretches": "stretching",
    "naps": "napping", "fasts": "fasting", "walks": "walking", "cycles": "cycling",
    "lifts": "weightlifting", "practises": "practice", "practices": "practice",
}  # fmt: skip
# academic fields: "switched to psychology" is a course, not a preference
FIELDS = (
    r"psychology|biology|chemistry|physics|economics|law|medicine|history|philosophy|sociology"
    r"|anthropology|politics|political science|computer science|engineering|mathematics|maths"
    r"|math|statistics|nursing|architecture|accounting|finance|business|marketing|linguistics"
    r"|literature|english literature|geography|geology|neuroscience|biochemistry|pharmacy"
    r"|dentistry|journalism|education|art history|fine art|graphic design|music|theatre|drama"
    r"|film studies|data science|veterinary science|criminology|classics|theology"
)
# drinks one takes, one preference: "always takes tea", "a flat white person", "switched to decaf"
DRINKS = (
    r"tea|coffee|flat whites?|lattes?|espressos?|cappuccinos?|americanos?|matcha|chai|cortados?"
    r"|mochas?|macchiatos?|decaf|hot chocolate|green tea|black coffee|herbal tea|iced coffee"
)
# one value said many ways, by its last word: "a glass of wine" and "alcohol" are one habit,
# "girlfriend now" and "in a relationship" one status, "back on bread" ends "gluten-free"
VALUE_CANON: dict[str, dict[str, str]] = {
    "habit": {
        **dict.fromkeys(
            word_set(
                "alcohol drinking drink drinks wine beer beers booze cocktails spirits whisky"
            ),
            "alcohol",
        ),
        **dict.fromkeys(
            ("smoking", "smokes", "smoke", "cigarettes", "cigarette", "smoked"), "smoking"
        ),
        **dict.fromkeys(("sober", "teetotal", "drunk", "drop"), "alcohol"),
        **dict.fromkeys(("vaping", "vapes", "vape"), "vaping"),
        **dict.fromkeys(("gaming", "games"), "video games"),
        **HABIT_VERBS,
    },
    "preference:commute": COMMUTE_MODES,
    "relationship_status": {
        **dict.fromkeys(
            ("relationship", "girlfriend", "boyfriend", "partner", "someone", "somebody"),
            "in a relationship",
        ),
        **dict.fromkeys(("husband", "wife"), "married"),
    },
    "diet": {
        **dict.fromkeys(("meat", "chicken", "beef", "pork", "steak", "burgers"), "omnivore"),
        "fish": "pescatarian",
        **dict.fromkeys(("bread", "pasta", "wheat", "gluten"), "gluten-free"),
        **dict.fromkeys(("dairy", "cheese", "milk", "lactose"), "dairy-free"),
    },
    "employer": {
        **dict.fromkeys(
            word_set("themself themselves herself himself myself freelance self-employed"),
            "self-employed",
        ),
        # no employer now, whichever it was: "retired", "between jobs", "unemployed"
        **dict.fromkeys(word_set("retired jobs unemployed jobless work notice"), "job"),
    },
}
# "may" in lower case only: "the 3rd of May" is a date, not a maybe
HYPOTHETICAL_RE = re.compile(
    r"\b(?:might|(?-i:may)|could|would|should|if|unless|maybe|perhaps|possibly|considering"
    r"|thinking (?:about|of)|wondering|hoping to|dreams? of|someday|one day|wants? to|wish"
    rf"|planning to|plans? to|{GOING_TO}|about to|whether)\b",
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
    # the value is said before the match ("Queen is Ravi's favourite band"): ``engine`` reads it
    # from the end of the clause before
    value_before: bool = False
    value: str = ""  # a fixed value, when the wording implies it ("cut out meat" → vegetarian)


def pattern(
    slot: Slot,
    text: str,
    *,
    ended: bool = False,
    qualifier: str = "",
    plans: bool = False,
    before: bool = False,
    value: str = "",
) -> ClaimPattern:
    polarity = Polarity.ENDED if ended else Polarity.HOLDS
    regex = re.compile(text, re.IGNORECASE)
    return ClaimPattern(slot, polarity, regex, qualifier, plans, before, value)


POSS = rf"(?P<s>{NAME})'s"  # a possessive subject: "Maya's favourite colour is ..."
# a negation, whole words and inside "isn't" / "doesn't" (where ``\b`` would not open it)
NOT_ANYMORE = r"(?:\b(?:no longer|not|never)|n['’]t)\b"
