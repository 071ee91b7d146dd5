"""Claim patterns of habits and pastimes: what one does by routine, for fun, or no longer eats.

"smokes", "has a glass of wine with dinner most nights", "meditates every evening" (a habit, its
name folded by ``VALUE_CANON``: "a glass of wine" is alcohol); "does yoga", "goes sailing",
"spends most evenings painting", "Pottery is Wren's new obsession" (a hobby); "cut out meat",
"gave up dairy" (a diet, the food given up naming it). Spliced into
:data:`kgmem.ingest.claims.patterns.PATTERNS` after the other values. Pure data, no I/O.
"""

from __future__ import annotations

from kgmem.ingest.claims.lexicon import DET, HABIT_VERBS, HOBBIES, NAME, POSS, ClaimPattern
from kgmem.ingest.claims.lexicon import pattern as _p
from kgmem.taxonomy.slots import Slot

_GIVE_UP_FOOD = (
    r"(?:cut out|gave up|given up|stopped eating|quit|no longer eats|doesn't eat|does not eat)"
)

_FREE_TIME = r"weekends|saturdays|sundays|evenings|mornings|afternoons|nights|lunch breaks"
HABITS: tuple[ClaimPattern, ...] = (
    _p(Slot.HABIT, r"\b(?P<v>smokes|vapes|smoking|vaping)\b"),
    # "has a glass of wine with dinner most nights", "drinks a beer every evening"
    _p(
        Slot.HABIT,
        r"\b(?:has|have|drinks|enjoys) (?:a |an |one |two |a few )?(?:glass(?:es)? of |pints? of "
        r"|cups? of )?(?P<v>wine|beer|whisky|cocktail|coffee|espresso)s? (?:with|every|each|most"
        r"|before|after)\b",
    ),
    _p(Slot.HOBBY, rf"\bhobby (?:is|has become|is now) (?:now )?{DET}(?P<v>{HOBBIES})\b"),
    # the time given to it: "Saturdays are for sailing lessons now", "Birdwatching is how Lucía
    # spends their Saturdays"
    _p(
        Slot.HOBBY,
        rf"\b(?:{_FREE_TIME}) are (?:now |all )?(?:for|about) {DET}(?P<v>{HOBBIES})\b",
    ),
    _p(Slot.HOBBY, rf"\bis how (?P<s>{NAME}) (?:now )?spends\b", before=True),
    # a pastime that took the place of the others: "Pottery has taken over from all Wren's old
    # crafts" (said as a replacement, it replaces the newest one held)
    _p(
        Slot.HOBBY,
        rf"\b(?:has|have) (?:now )?taken over from (?:all )?(?:{POSS}|\b(?:her|his|their|my))"
        rf" (?:old |other |former |usual )?(?:crafts|hobbies|pastimes|sports|interests)\b",
        before=True,
    ),
    _p(
        Slot.HOBBY,
        rf"(?:\bis|\bare|['’]s|\bhas become) (?:now |still )?{POSS} (?:new |latest |big )?(?:hobby"
        rf"|passion|obsession|thing)\b",
        before=True,
    ),
    # giving up a food is a diet: "cut out meat", "stopped eating meat", "gave up dairy"
    *(
        _p(Slot.DIET, rf"\b{_GIVE_UP_FOOD} (?:all |red )?(?P<v>{food})\b", value=diet)
        for food, diet in (
            ("meat", "vegetarian"),
            ("dairy", "dairy-free"),
            ("gluten", "gluten-free"),
        )
    ),
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
        rf"\b(?:took up|taken up|started|plays|picked up|got into|(?:is |got )?(?:really |very "
        rf"|super )?into|does|practises|practices|loves|enjoys|goes to|training for) {DET}"
        rf"(?:first )?(?P<v>{HOBBIES})\b",
    ),
    # a club or class of a pastime joined: "joined a swimming club", "signed up for pottery classes"
    _p(
        Slot.HOBBY,
        rf"\b(?:joined|signed up (?:for|to)|enrolled in) {DET}(?:local )?(?P<v>{HOBBIES})"
        rf" (?:club|team|class|classes|group|league|course|lessons)\b",
    ),
    # a collection is a hobby: "collects vinyl records", "has been collecting stamps for years"
    _p(
        Slot.HOBBY,
        r"\b(?:collects|collecting|collector of) (?:old |vintage |rare )?"
        r"(?P<v>(?:[\w-]+ )?[\w-]+s)\b",
    ),
    # "spends most evenings painting", "spends her weekends sailing"
    _p(
        Slot.HOBBY,
        rf"\bspends (?:most |all |every |her |his |their )?(?:free )?(?:evenings|weekends|mornings"
        rf"|time|days|afternoons|saturdays|sundays|summers) (?P<v>{HOBBIES})\b",
    ),
)
