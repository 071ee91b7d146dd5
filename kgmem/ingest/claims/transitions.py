"""Claim patterns of transitions: wordings that say a value no longer holds.

Quit, left, sold, broke up, passed away, moved out, no longer, not … anymore, stopped, gave up:
each :class:`~kgmem.ingest.claims.lexicon.ClaimPattern` here carries polarity ``ended`` and closes
a value even when no new one is said. They are tried before the patterns of values
(:mod:`kgmem.ingest.claims.patterns`), so "no longer works at" is not read as "works at". Pure
data, no I/O.
"""

from __future__ import annotations

from kgmem.ingest.claims.lexicon import (
    CONDITIONS,
    DET,
    DIETS,
    HOBBIES,
    KIN_WORDS,
    KIND_PHRASE,
    KINDS,
    LANGUAGES,
    NAME,
    NOT_ANYMORE,
    PET,
    POSS,
    ClaimPattern,
    V,
)
from kgmem.ingest.claims.lexicon import pattern as _p
from kgmem.taxonomy.slots import NONE, Slot

_FOODS = r"bread|pasta|wheat|gluten|dairy|cheese|milk|lactose"
_BODY = (
    r"ankle|wrist|knee|leg|arm|hand|foot|toe|finger|thumb|back|neck|shoulder|hip|elbow|ribs?"
    r"|collarbone|nose|jaw|acl|hamstring|achilles|calf|shin|spine|tooth|pelvis|heel"
)
TRANSITIONS: tuple[ClaimPattern, ...] = (
    _p(Slot.RESIDENCE, rf"\bmoved (?:out of|away from) {DET}{V}", ended=True),
    _p(
        Slot.EMPLOYER,
        rf"\b(?:left|quit|resigned from|was laid off from|was fired from"
        rf"|got laid off from|stopped working (?:at|for)) "
        rf"(?:(?:her|his|their|a|the) job (?:at|with) )?"
        rf"(?!(?:{LANGUAGES})\b)(?P<v>{NAME})",  # "quit Spanish" is a language
        ended=True,
    ),
    _p(Slot.EMPLOYER, r"\b(?:left|quit) (?:her|his|their|the) (?P<v>job)\b", ended=True),
    _p(
        Slot.EMPLOYER,
        rf"{NOT_ANYMORE} (?:\w+ )?(?:work|works|working) (?:at|for) {V}",
        ended=True,
    ),
    _p(
        Slot.PARTNER,
        rf"\b(?:broke up with|split (?:up )?with|divorced|separated from|"
        rf"dumped|left (?:her|his|their) (?:husband|wife|partner|boyfriend|girlfriend),?) {V}",
        ended=True,
    ),
    _p(Slot.PARTNER, r"\b(?P<v>broke up|split up|got divorced|are separated)\b", ended=True),
    # none held, said now: "doesn't own a car", "has no pets" (the value ``NONE``: a later car or
    # pet takes its place, ``gate.claim_rule``); "isn't seeing anyone" is "single" below
    _p(
        Slot.POSSESSION,
        rf"{NOT_ANYMORE} (?:currently |even |actually )?(?:own|have|drive|has)(?: got)? (?:a |an "
        rf"|any )(?P<v>{KINDS})s?\b",
        ended=True,
        value=NONE,
    ),
    _p(
        Slot.POSSESSION,
        rf"\b(?:has|have)(?: got)? no (?P<v>{KINDS})s?\b",
        ended=True,
        value=NONE,
    ),
    _p(
        Slot.PET,
        rf"(?:{NOT_ANYMORE} (?:currently |even |actually )?(?:have|has|own|keep)(?: got)? "
        rf"(?:a |an |any )|\b(?:(?:has|have)(?: got)?|with) no )(?P<v>pets?|(?:{PET})s?)\b",
        ended=True,
        value=NONE,
    ),
    _p(
        Slot.PARTNER,
        rf"\b(?P<v>called it quits|went (?:their|our) separate ways|(?:are|is) no longer together"
        rf"|(?:are|is) not together anymore|ended things)(?: with (?P<v2>{NAME}))?",
        ended=True,
    ),
    # an ex is a partner no longer: "Maya's ex-boyfriend Tom", "her ex, Sam"
    _p(
        Slot.PARTNER,
        rf"\bex(?:[- ](?:boyfriend|girlfriend|partner|husband|wife|fiancée?))?,? (?P<v>{NAME})\b",
        ended=True,
    ),
    _p(
        Slot.RELATIONSHIP_STATUS,
        rf"{NOT_ANYMORE} (?:really |currently )?(?:seeing|dating) (?P<v>anyone|anybody)\b"
        rf"|{NOT_ANYMORE} in a (?P<v2>relationship)\b",
        value="single",
    ),
    # a marriage ended in law or by living apart: "the divorce was finalised", "we separated"
    _p(
        Slot.RELATIONSHIP_STATUS,
        rf"(?:{POSS} |\b(?:the |(?:her|his|their|my|our) )?)(?P<v>divorce) (?:was|is|has been"
        rf"|got|came) (?:finally |officially )?(?:finali[sz]ed|final|through|granted)\b",
        value="divorced",
    ),
    _p(
        Slot.RELATIONSHIP_STATUS,
        r"\b(?:have |has |are |got |just )?(?P<v>separated|separating)\b(?! from\b)",
        value="separated",
    ),
    _p(
        Slot.PET,
        rf"\b(?:{PET}),? (?P<v>{NAME}),? (?:has )?(?:passed away|died|was put down"
        r"|was rehomed|ran away)",
        ended=True,
    ),
    _p(
        Slot.PET,
        rf"\b(?P<v>{NAME}) (?:has )?(?:passed away|died|was put down|was rehomed|ran away)",
        ended=True,
    ),
    _p(Slot.PET, rf"\b(?:lost|rehomed|gave away) {DET}(?:{PET}),? (?P<v>{NAME})", ended=True),
    # "we lost Biscuit in the spring": a name lost is a death; the gate ends only a pet held by
    # that name ("lost to Madrid", "lost Monday's match" name none)
    _p(
        Slot.PET,
        rf"\blost (?!(?:{KIN_WORDS}|grandpa|grandma|granny|mum|mom)\b)(?P<v>{NAME})\b(?!'s|’s)",
        ended=True,
    ),
    # "had to put Rex down" (not "put Tom down for a nap", "put Tom down as a reference")
    _p(
        Slot.PET,
        rf"\b(?:had|have|has|decided) to put (?P<v>{NAME}) down\b(?! (?:for|as)\b)",
        ended=True,
    ),
    _p(
        Slot.PET,
        rf"\b(?:lost|rehomed|put down|had to put down|said goodbye to) (?:her |his |their |the )"
        rf"(?:old |beloved |sweet )?(?P<v>{PET})\b",
        ended=True,
    ),
    # "rehomed the budgies", "gave Sheldon to the reptile rescue": a pet or a named thing handed on
    _p(Slot.PET, rf"\b(?:rehomed|gave away) {DET}(?P<v>(?:\w+ )?(?:{PET})s?)\b", ended=True),
    _p(Slot.PET, rf"\bgave (?P<v>{NAME}) (?:away|to)\b", ended=True),
    _p(
        Slot.POSSESSION,
        rf"\b(?:sold|got rid of|gave away|traded in|totaled|totalled|returned|donated|scrapped"
        rf"|wrote off) {DET}{V}",
        ended=True,
    ),
    # a thing handed on or lost: "gave their PS5 to a nephew", "had her bike stolen", "Maya's
    # old Civic finally died"
    _p(
        Slot.POSSESSION,
        rf"(?:{POSS}|\b(?:her|his|their|my|our)) (?:old )?{KIND_PHRASE} (?:finally |just )?(?:died"
        rf"|broke down for good|was stolen|got stolen|was written off|was totall?ed|got totall?ed)",
        ended=True,
    ),
    _p(Slot.POSSESSION, rf"\bgave {DET}{KIND_PHRASE} (?:to|away)\b", ended=True),
    # "traded the Prius in for a Tesla", "part-exchanged her old Golf"
    _p(
        Slot.POSSESSION,
        r"\b(?:traded|part[- ]exchanged) (?:in )?(?:the |her |his |their |my )?(?:old )?"
        r"(?P<v>(?-i:[A-Z][\w-]*(?: [A-Z][\w-]*)?)) in\b",
        ended=True,
    ),
    _p(Slot.POSSESSION, rf"\b(?:had|got) {DET}{KIND_PHRASE} stolen\b", ended=True),
    _p(Slot.DIET, rf"{NOT_ANYMORE} (?:a )?(?P<v>{DIETS})\b", ended=True),
    # eating a thing again ends the diet without it: "back on bread" ends "gluten-free"
    _p(
        Slot.DIET,
        rf"\b(?:back (?:on|to eating|to)|(?:eats|eating|started eating) (?=[\w ]*\bagain\b))"
        rf" (?:regular |normal |some )?(?P<v>{_FOODS})\b",
        ended=True,
    ),
    _p(
        Slot.DIET,
        rf"\b(?:stopped being|quit being|gave up being) (?:a )?(?P<v>{DIETS})",
        ended=True,
    ),
    # a diet dropped by name: "has dropped keto", "came off paleo", "ditched the vegan diet"
    _p(
        Slot.DIET,
        rf"\b(?:dropped|ditched|quit|gave up|given up|came off|come off|abandoned|stopped) (?:the "
        rf"|her |his |their )?(?P<v>{DIETS}|fasting)\b",
        ended=True,
    ),
    _p(
        Slot.ALLERGY,
        rf"{NOT_ANYMORE} (?:to be |be |been )?(?:actually |really )?allergic to {V}",
        ended=True,
    ),
    # a condition gone: "Maya's asthma has cleared up", "her migraines went away"
    _p(
        Slot.HEALTH,
        rf"(?:{POSS}|\b(?:her|his|their|my)) (?P<v>[\w-]+(?: (?!(?:is|has|have)\b)[\w-]+)?)"
        rf" (?:is (?:finally |now "
        rf"|all |completely )?gone|has gone|went"
        rf" away|has gone away|cleared up|has cleared up|is cured|is in remission|is under control"
        rf" now)",
        ended=True,
    ),
    # an injury held: "broke her ankle", "sprained my wrist", "Maya's knee is injured"
    _p(
        Slot.HEALTH,
        rf"\b(?:broke|sprained|fractured|injured|tore|twisted|dislocated|hurt|pulled) (?:(?:her|his"
        rf"|their|my|{POSS}) )(?:left |right )?(?P<v>{_BODY})\b",
    ),
    _p(
        Slot.HEALTH,
        rf"(?:{POSS}|\b(?:her|his|their|my)) (?:left |right )?(?P<v>{_BODY}) (?:is|was) (?:badly "
        rf"|still )?(?:injured|broken|sprained|fractured|hurt)\b",
    ),
    # a body part healed or a condition got over: "her wrist has fully healed", "my asthma has
    # completely cleared up", "is over the cold now", "has recovered from the flu"
    _p(
        Slot.HEALTH,
        rf"(?:{POSS}|\b(?:her|his|their|my)) (?P<v>[\w-]+) (?:has|is|have|are) (?:now )?(?:fully "
        rf"|completely |finally |totally )?(?:healed|recovered|back to normal|cleared up)\b",
        ended=True,
    ),
    _p(
        Slot.HEALTH,
        rf"\b(?:has|have|is|am|are) (?:now )?(?:fully |completely |finally |totally )?(?:recovered"
        rf" from (?:the |her |his |their |my |a |an )?(?P<v>(?!(?:it|that|this)\b)[\w-]+"
        rf"(?: [\w-]+)?)|over (?:the |her |his |their |my |a |an )?(?P<v2>{CONDITIONS}))"
        rf"(?=\s*(?:now|[,.!;]|$))",
        ended=True,
    ),
    # a named condition gone: "the insomnia is finally gone" (not "the milk is gone")
    _p(
        Slot.HEALTH,
        rf"\bthe (?P<v>{CONDITIONS}) (?:is|has|have|are) (?:finally |now |all |completely )?"
        rf"(?:gone|cleared up|went away|gone away|cured)\b",
        ended=True,
    ),
    # "is not lactose intolerant after all" (the allergic form is read above)
    _p(
        Slot.ALLERGY,
        rf"{NOT_ANYMORE} (?:be |been )?(?:actually |really )?(?P<v>[\w-]+) intolerant\b",
        ended=True,
    ),
    _p(Slot.ALLERGY, rf"\b(?:allergy|intolerance) to {V} (?:was|has been) ruled out", ended=True),
    _p(Slot.ALLERGY, rf"\bruled out {DET}(?:\w+ )?(?:allergy|intolerance) to {V}", ended=True),
    # a diagnosis taken back: "the lactose thing was misdiagnosed", "doesn't have asthma after all"
    _p(
        Slot.HEALTH,
        r"\b(?:the )?(?P<v>[\w-]+)(?: thing| allergy| intolerance| diagnosis)? (?:was|turned out to"
        r" be|has been) (?:a )?(?:misdiagnos(?:ed|is)|false alarm|ruled out)",
        ended=True,
    ),
    _p(
        Slot.HEALTH,
        r"\b(?:doesn't|does not|didn't|did not) (?:actually )?have (?:a |an )?(?P<v>[\w-]+"
        r"(?: [\w-]+)?) after all\b",
        ended=True,
    ),
    _p(
        Slot.SCHOOL,
        rf"\b(?:dropped out of|withdrew from|was expelled from) {DET}{V}",
        ended=True,
    ),
    _p(Slot.NICKNAME, rf"{NOT_ANYMORE} (?:goes|go|going) by {V}", ended=True),
    _p(Slot.NICKNAME, rf"\b(?:stopped|quit) (?:going by|using the nickname) {V}", ended=True),
    # a name one asks to be left: "please stop calling me Mags", "don't call me Mags anymore"
    _p(
        Slot.NICKNAME,
        rf"\b(?:stop|quit|stopped) calling (?:{NAME}|me|her|him|them) (?P<v>(?-i:[A-Z][\w-]*))\b",
        ended=True,
    ),
    _p(
        Slot.NICKNAME,
        rf"\b(?:don['’]t|do not|never) call (?:{NAME}|me|her|him|them) (?P<v>(?-i:[A-Z][\w-]*))\b",
        ended=True,
    ),
    # "has dropped the nickname": whichever one was held
    _p(
        Slot.NICKNAME,
        r"\b(?:dropped|ditched|stopped using|gave up|given up|retired) (?:the |her |his |their "
        r"|my )?(?:old )?(?P<v>nickname)\b",
        ended=True,
    ),
    _p(
        Slot.HABIT,
        r"\b(?:quit|quitting|stopped|gave up|given up|giving up|kicked|cut out|ditched|dropped)"
        r" (?:the |her |his |their )?(?P<v>smoking|vaping|drinking(?: \w+)?"
        r"|caffeine|coffee|alcohol|sugar|biting \w+ nails|cigarettes)",
        ended=True,
    ),
    _p(
        Slot.HABIT,
        rf"{NOT_ANYMORE} (?P<v>smokes?|smoking|vapes?|vaping|drinks?(?: \w+)?)\b",
        ended=True,
    ),
    # "two months since her last vape", "a year without a cigarette"
    _p(
        Slot.HABIT,
        rf"\b(?:since|without) (?:(?:{POSS}|her|his|their|my|a|any) )?(?:last |single )?(?P<v>vape"
        rf"|cigarette|smoke|drink|sip of alcohol)\b",
        ended=True,
    ),
    # "hasn't smoked in months", "is off caffeine", "is sober now"
    _p(
        Slot.HABIT,
        r"\b(?:hasn't|has not|haven't|have not) (?P<v>smoked|vaped|had a (?:cigarette|drink)|drunk"
        r"|touched (?:alcohol|a drop))\b",
        ended=True,
    ),
    _p(
        Slot.HABIT,
        r"\b(?:is|am|are|has been|have been|['’]s been) (?:now |completely )?(?:off (?:the )?"
        r"(?P<v>coffee|caffeine|alcohol|booze|sugar|cigarettes|smokes)|(?P<v2>sober|teetotal))\b",
        ended=True,
    ),
    _p(
        Slot.LANGUAGE,
        rf"\b(?:gave up (?:on )?|stopped |quit |dropped )(?:learning |her |his |their |the )?"
        rf"(?P<v>{LANGUAGES})\b",
        ended=True,
    ),
    # one thing replaced by another ends the first: "replaced gaming with reading", "swapped
    # coffee for green tea"
    _p(
        Slot.HABIT,
        r"\b(?:replaced|swapped|traded|exchanged) (?:her |his |their |the )?(?P<v>[\w-]+"
        r"(?: [\w-]+)?) (?:with|for)\b",
        ended=True,
    ),
    # a habit dropped by name: "dropped the meditation habit", "kicked the nail-biting habit"
    _p(
        Slot.HABIT,
        r"\b(?:quit|stopped|gave up|given up|kicked|dropped|ditched|broke) (?:the |her |his "
        r"|their |a )?(?P<v>[\w-]+(?: [\w-]+)?) habit\b",
        ended=True,
    ),
    _p(
        Slot.HOBBY,
        rf"\b(?:quit|stopped|gave up|given up|dropped|ditched|retired from) (?:on )?"
        rf"(?:playing |doing |going (?:to )?|the |her |his |their )?(?P<v>{HOBBIES})\b",
        ended=True,
    ),
    # a pastime's membership or classes ended: "cancelled my climbing membership"
    _p(
        Slot.HOBBY,
        rf"\b(?:cancelled|canceled|ended|quit|dropped|stopped|gave up|let) (?:the |her |his "
        rf"|their |my )?(?P<v>{HOBBIES}) (?:membership|classes|lessons|subscription|pass)\b",
        ended=True,
    ),
    # a plan given up: "decided not to apply for the PhD after all", "no longer planning to
    # move abroad", "gave up on the idea of a second degree", "scrapped their plan to sell"
    _p(Slot.GOAL, rf"\b(?:decided|decides|deciding) not to {V}", ended=True, plans=True),
    _p(
        Slot.GOAL,
        rf"{NOT_ANYMORE} (?:\w+ )?(?:planning|plans|plan|hoping|intending|aiming) to {V}",
        ended=True,
        plans=True,
    ),
    _p(
        Slot.GOAL,
        rf"\b(?:gave up|given up|giving up) on (?:the idea of |the plan to |(?:her |his |their )"
        rf"?plans? (?:to|of) ){V}",
        ended=True,
        plans=True,
    ),
    _p(
        Slot.GOAL,
        rf"\b(?:called off|scrapped|shelved|dropped|abandoned|ditched) (?:the |her |his |their )"
        rf"?(?:plans?|idea) (?:to|of|for) {V}",
        ended=True,
        plans=True,
    ),
)
