"""Claim patterns of amounts and plans: budgets, costs, deadlines, goals and measured quantities.

The project side of what a person says ("allocated $120 for books", "the sprint deadline moved to
April 5", "the rent went up to £1,250", "response time improved to 250ms"). Each is qualified by
what the amount is for or what is counted, so two amounts of one thing meet on one key and a
changed amount is an update. Plans are stated with "want to", "plan to": these patterns read
them all the same (``plans=True``). Tried after the other values
(:mod:`kgmem.ingest.claims.patterns`). Pure data, no I/O.
"""

from __future__ import annotations

from kgmem.ingest.claims.lexicon import POSS, ClaimPattern, V
from kgmem.ingest.claims.lexicon import pattern as _p
from kgmem.taxonomy.slots import Slot

_CURRENCY_AMOUNT = r"[$€£]\s?\d[\d,]*(?:\.\d+)?(?:\s?[kKmM]\b)?"
_MONEY = rf"(?P<v>{_CURRENCY_AMOUNT})"
# an amount of pay with or without its currency: "$90k", "65k", "55,000 a year"
_PERIOD = r"(?= (?:a|per|an) (?:year|month|hour|annum)\b| (?:dollars|pounds|euros)\b)"
_PAY_PERIOD = rf"(?P<v>[$€£]?\s?\d[\d,]{{3,}}(?:\.\d+)?(?:\s?[kK]\b)?{_PERIOD})"
_PAY = (
    rf"(?P<v>{_CURRENCY_AMOUNT}|\d[\d,]*(?:\.\d+)?\s?[kK]\b"
    rf"|\d[\d,]{{3,}}(?:\.\d+)?{_PERIOD})"
)
_COSTS = (
    r"rent|mortgage|salary|pay|wage|wages|allowance|tuition|fees|childcare|insurance|premium"
    r"|subscription|membership|commute cost|bills"
)
# the words between a cost and its new amount: "is now", "has gone up to", "put ... up to"
_CHANGE_WORDS = (
    r"is|was|are|were|has|have|had|been|be|now|just|recently|finally|went|gone|goes|go|got"
    r"|rose|risen|increased|dropped|fell|fallen|raised|cut|lowered|bumped|put|jumped|climbed"
    r"|up|down|to|at|about|around|only|currently|which|that|a|month|monthly"
)

_MONTH = (
    r"January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
)

_WEEKDAY = r"Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
# the hour, part of the value: "April 21 at 3 PM" moved to "April 22 at 11 AM" is a change
_CLOCK = r"(?:(?: \([\d-]+\))?,? at \d{1,2}(?::\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)?(?!\w))?"
# a day or month something is set for: "March 3", "the 3rd of May", "next Friday", "June"
_DATE = (
    rf"(?P<v>(?-i:{_MONTH})\.? \d{{1,2}}(?:st|nd|rd|th)?\b{_CLOCK}"
    rf"|\d{{1,2}}(?:st|nd|rd|th)? (?:of )?(?-i:{_MONTH})\b|(?:next |this )?(?-i:{_WEEKDAY})\b"
    rf"|next (?:week|month|year)\b"
    rf"|(?:early |mid-?|late |the end of )?(?-i:{_MONTH})\b"
    rf"|(?:next |this |early |late )?(?:spring|summer|autumn|fall|winter)\b)(?! (?-i:[A-Z]))"
)
# an event or piece of work named by up to two words, not a verb or a pronoun ("the conference",
# "my thesis defence", "Launch")
_EVENT_WORDS = (
    r"(?!(?:it|this|that|which|what|who|has|have|had|was|were|is|are|got|just|been"
    r"|we|they|he|she|i)\b)(?:(?-i:[a-z])|(?:(?<=^)|(?<=: )|(?<=\ba )|(?<=\ban )|(?<=\bthe )"
    r"|(?<=\bmy )|(?<=\bour ))(?-i:[A-Z]))[\w-]*"
    r"(?: (?!(?:has|have|was|were|is|are|got|just|been|with)\b)[a-z][\w-]*)?"
)
_EVENT = rf"(?P<q>{_EVENT_WORDS})"
# an appointment named with whom it is: "a Zoom call with the creative director" (the party is
# part of the qualifier: a call with Ana is not a call with Ben)
_WITH = r" with (?:[\w.'’-]+ ){0,3}?[\w.'’-]+"
_EVENT_WITH = rf"(?P<q>{_EVENT_WORDS}{_WITH})"
_MOVED = (
    r"(?:pushed back|pushed|moved|rescheduled|postponed|delayed|bumped|brought forward|slipped"
    r"|shifted|changed|moving|rescheduling|pushing|postponing|delaying)(?: back| forward| up)?"
)

_COUNT = r"\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty"
_SERVING = r"cups?|glass(?:es)?|pints?|cans?|bottles?|shots?|packs?|servings?|slices?|pieces?"
_PERIOD = r"(?:a|per|each|every) (?:day|night|week|month)"

AMOUNTS: tuple[ClaimPattern, ...] = (
    # a rate of something taken: "drinks about four coffees a day", "down to one coffee a day",
    # "smokes 10 cigarettes a day" (time spent is no thing counted: "8 hours a night")
    _p(
        Slot.QUANTITY,
        rf"\b(?:drinks?|drank|has|have|had|smokes?|eats?|takes?|down to|up to|cut (?:back |down )?"
        rf"to|only|now) (?:about |around |roughly |maybe |only |just |at most |up to )?"
        rf"(?P<v>{_COUNT}) (?:(?:{_SERVING}) of )?(?!(?:hours?|minutes?|times?|days?|nights?"
        rf"|weeks?)\b)(?P<q>[a-z]+) {_PERIOD}\b",
        plans=True,
    ),
    # a date an event moved to: "the conference got pushed back to April 10", "the defence has
    # been moved to June 2", "launch slipped to October 15"
    _p(
        Slot.DEADLINE,
        rf"\b(?:the |my |our |her |his |their )?{_EVENT} (?:has been |have been |was |were |got "
        rf"|is being |has |have |just |now )*{_MOVED} (?:to|until|till) (?:the )?{_DATE}",
        plans=True,
    ),
    # "delayed the product launch to July 22", "moved our offsite to May 19", "moving the Zoom
    # call with the creative director to April 22"
    _p(
        Slot.DEADLINE,
        rf"\b{_MOVED} (?:the |my |our |her |his |their )?(?P<q>{_EVENT_WORDS}(?:{_WITH})?) (?:back "
        rf"|forward )?(?:to|until|till) (?:the )?{_DATE}",
        plans=True,
    ),
    # an appointment with someone on a day: "have a Zoom call with the creative director on
    # April 21 at 3 PM", "booked a session with an immigration consultant on May 20"
    _p(
        Slot.DEADLINE,
        rf"\b(?:have|has|had|booked|scheduled|arranged|set up|got) (?:a |an |my |the |our )?"
        rf"{_EVENT_WITH} (?:on|for) (?:the )?{_DATE}",
        plans=True,
    ),
    # the event named before: "remind me that it's rescheduled to March 22 at 4:30 PM" (the gate
    # finds which of the person's dates it restates)
    _p(
        Slot.DEADLINE,
        rf"\b(?:it|this|that)(?:['’]s| is| was| has| got)(?: been| now| just| being)* {_MOVED}"
        rf" (?:to|until|till) (?:the )?{_DATE}",
        plans=True,
    ),
    # a date an event is set for: "the conference is on March 3", "my thesis defence is
    # scheduled for May 12"
    _p(
        Slot.DEADLINE,
        rf"\b(?:the |my |our |her |his |their )?{_EVENT} (?:is|are|was) (?:now )?(?:(?:scheduled"
        rf"|set|planned|booked|fixed|happening|taking place) )?(?:for|on) (?:the )?{_DATE}",
        plans=True,
    ),
    # "launching the app on September 1": the launch is the event
    _p(
        Slot.DEADLINE,
        rf"\b(?:launching|releasing|shipping) (?:the |our |my |their |her |his )?"
        rf"(?:[\w-]+ ){{0,2}}?(?:on|in|by) {_DATE}",
        qualifier="launch",
        plans=True,
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
    # the date said before the word: "their April 20 deadline for the draft submission", "the
    # new April 25 deadline"
    _p(
        Slot.DEADLINE,
        rf"\b(?:{POSS}|(?:my|her|his|their|our|the|a)) (?:new |revised |original |final )?"
        rf"(?P<v>(?-i:{_MONTH}) \d{{1,2}}(?:st|nd|rd|th)?)(?: \([\d-]+\))? deadline"
        rf"(?: for (?:the |a |an |my |her |his |their |our )?(?P<q>[a-z][\w-]*))?",
        plans=True,
    ),
    # "the new sprint deadline of April 5", "a deadline of April 1 for the first sprint"
    _p(Slot.DEADLINE, rf"\b(?:(?P<q>[a-z]+) )?deadline (?:of|to|is now) {V}", plans=True),
    # a date something happens on: "the launch date is November 3", "release date moved to May"
    _p(
        Slot.DEADLINE,
        rf"\b(?-i:(?P<q>launch|release|due|start|opening|submission|delivery|closing|go-live"
        rf"|wedding|move|moving|exam|hand-in)) date (?:is|was moved to|moved to|is now|has been "
        rf"moved to|got pushed to|was pushed to|pushed to|changed to|slipped to) (?:now )?{V}",
        plans=True,
    ),
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
        r"[\d,.]+\s?(?:%|ms|s|k)? )?to (?P<v>\d(?:[\d,.]*\d)?\s?(?:%|ms|s|kb|mb|gb|k)?)",
        plans=True,
    ),
    # a count said reached: "commits merged into the main branch, which has now reached 165"
    _p(
        Slot.QUANTITY,
        r"\b(?!(?:has|have|had|which|that)\b)(?-i:(?P<q>[a-z]+)),? (?:which |that )?(?:has |have"
        r" |had )?(?:recently |now |just |finally )?(?:reached|hit|passed|topped|crossed) "
        # the whole number, with no unit or counted thing after it (read by the next form)
        r"(?P<v>\d(?:[\d,.]*\d)?)(?![\d,.]*\d)(?![%\w])(?!\s?(?:%|ms|s|kb|mb|gb|k)\b)"
        r"(?! (?-i:[a-z]))",
        plans=True,
    ),
    _p(
        Slot.QUANTITY,
        r"\b(?:has|have|had|is at|at|to|now|down to|up to|collected|read|about|with|reached"
        r"|around|of|secured|landed)"
        r" (?P<v>\d(?:[\d,.]*\d)?\s?(?:%|ms|s|kb|mb|gb|k)?) (?P<q>[a-z]+)\b",
        plans=True,
    ),
    # a measure said with its level: "validation accuracy is 88%", "the API's p95 latency is
    # 180 ms", "got p95 down to 120 ms"; the number must end the phrase ("is 5 people" counts
    # people, read above)
    _p(
        Slot.QUANTITY,
        r"\b(?-i:(?P<q>[a-z][a-z0-9-]*)) (?:is|are|was|were|has been|stands at|sits at|down to"
        r"|up to|back to)(?: now| currently| down to| up to| at| about| around| only){0,2} "
        r"(?P<v>\d(?:[\d,.]*\d)?(?![,.]?\d)(?:\s?(?:%|ms|s|kb|mb|gb|k)(?![\w%])|(?![\w%])"
        r"(?!\s(?-i:[a-z]))))",
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
    # "the budget for the trip is now $3,000", "her trip budget went up to $2,500"
    _p(
        Slot.BUDGET,
        rf"\bbudget for (?:the |a |an |her |his |their |my )?(?P<q>[\w ]+?) "
        rf"(?:(?:{_CHANGE_WORDS}) ){{1,4}}{_MONEY}",
        plans=True,
    ),
    _p(
        Slot.BUDGET,
        rf"\b(?-i:(?P<q>[a-z]+)) budget (?:(?:{_CHANGE_WORDS}) ){{1,4}}{_MONEY}",
        plans=True,
    ),
    # what one earns: "now earns $90k", "is paid £40,000 a year", "makes 65k", "is on 62,000 a
    # year" (a pay said without its currency is read when it says its period or its thousands)
    _p(
        Slot.BUDGET,
        rf"\b(?:earns|earning|makes|making|is paid|gets paid|takes home|bringing in) (?:about "
        rf"|around |roughly |now |nearly )?{_PAY}",
        qualifier="salary",
        plans=True,
    ),
    _p(
        Slot.BUDGET,
        rf"\b(?:is|am|are|'m|’m|now) (?:now )?on (?:about |around |roughly )?{_PAY_PERIOD}",
        qualifier="salary",
        plans=True,
    ),
    # a recurring cost or an income said with its amount, in either order and through any verb
    # of change: "the rent is £1,100", "the landlord put the rent up to £1,250", "pays $900 a
    # month in rent", "her salary went up to $85k"
    _p(
        Slot.BUDGET,
        rf"(?:{POSS} |\b)(?:monthly |weekly |annual |yearly |new )?(?P<q>{_COSTS})"
        rf"(?: payments?| bill)?,? (?:(?:{_CHANGE_WORDS}) ){{0,4}}{_MONEY}",
        plans=True,
    ),
    _p(
        Slot.BUDGET,
        rf"\bpays? (?:about |around |just |only )?{_MONEY}(?: a| per| each) (?:month|week|year)"
        rf" (?:in|for) (?P<q>{_COSTS})\b",
        plans=True,
    ),
)
