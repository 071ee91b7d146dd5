"""The claim lexicon: the words and regular-expression fragments the claim patterns are built of.

Word lists (pet kinds, kin words, possession kinds, diets, languages, hobbies, occupations), the
fragments every pattern shares (a value ``V``, a capitalised ``NAME``, a determiner ``DET``, a
possessive subject ``POSS``, a negation ``NOT_ANYMORE``), the hypothetical and additive cues, and
:class:`ClaimPattern` with its constructor ``pattern``. The patterns themselves are
:mod:`kgmem.ingest.claim_transitions` (a value ends) and :mod:`kgmem.ingest.claim_patterns` (a
value holds). Pure data, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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


def pattern(
    slot: Slot, text: str, *, ended: bool = False, qualifier: str = "", plans: bool = False
) -> ClaimPattern:
    polarity = Polarity.ENDED if ended else Polarity.HOLDS
    return ClaimPattern(slot, polarity, re.compile(text, re.IGNORECASE), qualifier, plans)


POSS = rf"(?P<s>{NAME})'s"  # a possessive subject: "Maya's favourite colour is ..."
NOT_ANYMORE = r"(?:no longer|not|n't|never)\b"
