"""Claim patterns of work and study: employer, job title, school and field of study.

How English says where one works and what as ("works at", "Nadia's team at Google", "is now a
senior nurse", "They made Leila store manager", "As a sales associate, Leila ..."), and where
and what one studies ("is at Roosevelt High", "a second-year law student", "switched courses
to architecture"). A named school is told from an employer by the words schools are named with
("High", "College", "University of"), so "first week at Lincoln High" is a school and "first
week at Monzo" an employer. Spliced into :data:`kgmem.ingest.claims.patterns.PATTERNS` after
the values of identity and home. Pure data, no I/O.
"""

from __future__ import annotations

from kgmem.ingest.claims.lexicon import (
    CAP_NAME,
    DET,
    FIELDS,
    JOB_PHRASE,
    NAME,
    NOT_SCHOOL,
    POSS,
    SCHOOL_NAME,
    ClaimPattern,
    V,
)
from kgmem.ingest.claims.lexicon import pattern as _p
from kgmem.taxonomy.slots import Slot

_WORK_THING = (
    r"(?:new |current |old )?(?:job|role|position|gig|office|desk|team|colleagues|coworkers"
    r"|co-workers|boss|manager|first (?:day|week|month)|onboarding|contract)"
)
_NOT_FIELDS = (
    r"a|an|the|high school|school|grad|graduate|phd|masters?|exchange|international|mature|college"
    r"|university|uni|good|great|top|star|model|former|ex|new|first|final|visiting|straight"
)
_NAMED_WORK = rf"{NOT_SCHOOL}{CAP_NAME}"
# what one joins without working there
_CLUBS = (
    r"(?:association|club|society|group|community|league|choir|network|committee|union|forum"
    r"|circle|meetup|gym|guild|chapter|collective|orchestra|team)s?"
)
_NUMBER_WORDS = (
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a couple|a few|several)"
)

# "started at 9am", "starting at noon", "started at the beginning": when, not where
_NOT_A_TIME = (
    r"(?! (?:\d|noon\b|midnight\b|dawn\b|dusk\b|sunrise\b|sunset\b"
    r"|the (?:beginning|start|top|bottom|end)\b))"
)

WORK: tuple[ClaimPattern, ...] = (
    # a named school one starts at is a school, not a work place: "starts at Edinburgh
    # University in September"
    _p(
        Slot.SCHOOL,
        rf"\b(?:starts|starting|started|start|begins|beginning|began|begin) (?:at|uni at|college"
        rf" at) {SCHOOL_NAME}",
    ),
    # no employer now: "retired last month", "is between jobs", "is out of work"
    _p(
        Slot.EMPLOYER,
        r"(?<!\ba )(?<!\ban )\b(?:has |just |finally )?(?P<v>retired)\b(?!\s+(?:from|as|at)\b)"
        r"(?! \w+(?:er|or|ist)\b)",  # not "a retired nurse": that one says what she was
        ended=True,
    ),
    _p(
        Slot.EMPLOYER,
        r"\b(?:is|am|are) (?:now |currently )?(?P<v>between jobs|out of work|unemployed"
        r"|jobless)\b",
        ended=True,
    ),
    _p(Slot.EMPLOYER, rf"\bretired from (?P<v>{NAME})", ended=True),
    # notice handed in, a last day: "handed in her notice at Google", "her last day at Google"
    _p(
        Slot.EMPLOYER,
        rf"\bhanded in (?:her |his |their |my )?notice at {CAP_NAME}",
        ended=True,
    ),
    _p(
        Slot.EMPLOYER,
        rf"(?:{POSS}|\b(?:her|his|their|my)) (?:last|final) (?:day|shift|week) at {_NAMED_WORK}",
        ended=True,
    ),
    # a person's start at a named place of work, said in the present: "on Monday Maya starts at
    # Diageo" (not "the film starts at the Odeon")
    _p(
        Slot.EMPLOYER,
        rf"(?P<s>{NAME}) (?:starts|is starting|begins) (?:work |working )?at {_NAMED_WORK}",
    ),
    _p(Slot.JOB_TITLE, rf"\bpromotion to (?:the |a |an )?(?:new )?{JOB_PHRASE}"),
    # a post won: "got the charge nurse position", "landed the senior analyst job"
    _p(
        Slot.JOB_TITLE,
        rf"\b(?:got|landed|was offered|accepted|took|started) (?:the |a |an |her |his |their |my )?"
        rf"(?:new )?{JOB_PHRASE} (?:position|job|role|post)\b",
    ),
    _p(Slot.EMPLOYER, r"\bhanded in (?:her |his |their |my )?(?P<v>notice)\b", ended=True),
    # "Maya is not at Google anymore", "isn't with Deloitte any more"
    _p(
        Slot.EMPLOYER,
        rf"\b(?:is|am|are|['’]s|['’]m|['’]re) (?:no longer (?:at|with) {_NAMED_WORK}"
        rf"|(?:not|n['’]t) (?:at|with) {_NAMED_WORK.replace('<v>', '<v2>')},? any ?more\b)",
        ended=True,
    ),
    _p(
        Slot.EMPLOYER,
        r"\b(?:is|am|are) (?:now )?(?:a )?(?P<v>freelancer|freelance|self-employed|(?:her|his"
        r"|their) own boss)\b",
        value="self-employed",
    ),
    # a job said by its name: "Maya's job is a paramedic", "her employer is now Monzo"
    _p(
        Slot.JOB_TITLE,
        rf"(?:{POSS}|\b(?:her|his|their|my|our)) (?:new )?job is (?:now )?(?:a |an )?{JOB_PHRASE}",
    ),
    _p(
        Slot.EMPLOYER,
        rf"(?:{POSS}|\b(?:her|his|their|my|our)) (?:new |current )?(?:employer|workplace|company"
        rf"|firm) is (?:now )?{CAP_NAME}",
    ),
    _p(
        Slot.EMPLOYER,
        rf"\b(?:is|am|are) (?:now )?(?:part of|on|in|with) (?:the |a )?(?:[\w-]+ ){{0,3}}?(?:team"
        rf"|department|group|division|lab|unit) (?:at|with) {_NAMED_WORK}",
    ),
    # the place first: "Google is where Maya works now", "Leeds is where Maya lives"
    _p(Slot.EMPLOYER, rf"\bis where (?P<s>{NAME}) (?:now )?(?:works|is working)\b", before=True),
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
        rf"(?:\b(?:is|am|are|became|becoming|has become|have become|has been|have been|qualified as"
        rf"|trained as|retrained as)|['’]s(?= (?:now |currently |still )?(?:a|an) )) (?:now "
        rf"|currently |still |officially |finally )?(?:a |an |the )?{JOB_PHRASE}",
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
    # a first stretch at a new work place: "First week at Netflix done, the onboarding was
    # intense" (not a first day at Disneyland: the stretch is over, or work is named)
    _p(
        Slot.EMPLOYER,
        rf"\bfirst (?:day|week|month|shift|fortnight) (?:at|with) {CAP_NAME}(?=,? (?:is |was )?"
        rf"(?:done|over|complete|completed|survived|in the books)\b|[^.!?]*\b(?:onboarding"
        rf"|colleagues|coworkers|co-workers|team|boss|manager|office|shift|job)\b)",
    ),
    # a rank won in a firm: "made partner", "making senior partner" (not "a partner in crime")
    _p(
        Slot.JOB_TITLE,
        r"\b(?:made|make|makes|making) (?P<v>(?:senior |equity |full |managing )?partner)\b"
        r"(?! (?:with|in|of|to|for)\b)",
    ),
    # a profession qualified in: "as a fully qualified teacher", "now a qualified nurse"
    _p(Slot.JOB_TITLE, rf"\b(?:as|now) (?:a |an )?(?:newly |fully )?qualified {JOB_PHRASE}"),
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
        # not a stretch of time or a purpose: "pause freelance work for 3 weeks", "make it work
        # for academic, visa, and grant applications"
        rf"\b(?<!it )(?<!this )(?<!that )(?:works|working|work|employed|started working) (?:now )?"
        rf"(?:at|for|by) (?!(?:\d|{_NUMBER_WORDS}|a (?:while|bit|few|couple|living|moment)"
        rf"|(?:the )?(?:next|past|last|rest|whole)\b|hours|days|weeks|months|years|free|fun"
        rf"|home|night)\b){V}",
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
        # joining a club, an association or a group is no job: "joined the Toronto Caribbean
        # Cultural Association"
        rf"\b(?:joined(?= (?:the )?(?-i:[A-Z]))(?! (?:the )?(?:[\w'’&-]+ ){{0,5}}?{_CLUBS}\b)"
        rf"|got a job at|got hired (?:at|by)"
        rf"|was hired (?:at|by)"
        rf"|accepted (?:an |the )?(?:job )?offer from|started (?:a (?:new )?job )?at{_NOT_A_TIME}"
        rf"|new job at"
        # a new job said in passing: "since starting at the roastery, my mornings are calmer"
        rf"|since (?:starting|beginning) (?:a (?:new )?job |work )?at{_NOT_A_TIME}"
        rf"|works (?:in|on) (?:[\w-]+ ){{1,3}}?at(?= (?:the )?(?-i:[A-Z]))"
        rf"|started (?:a |an )?(?:new )?(?:[\w-]+ )?(?:job|role|position|gig) (?:at|with)"
        rf"|teaches at|teaching at|coaches at"
        rf"|landed (?:a |an )?(?:[\w-]+ )?(?:job|role|position|gig) (?:at|with)"
        rf"|got (?:a |an |the )?(?:new )?(?:[\w-]+ )?(?:job|role|position|gig) (?:at|with)"
        rf"|took (?:a |an )?(?:[\w-]+ )?(?:job|role|position) (?:at|with)"
        rf"|freelances? for|contracts? for|signed with"
        # "joined a startup called Lumen": the place is named after its kind
        rf"|joined (?:a |an )?(?:[\w-]+ )?(?:startup|company|firm|agency|studio|lab|practice"
        rf"|consultancy|nonprofit|charity|bank|school|hospital) (?:called|named)) {V}",
    ),
    _p(
        Slot.FIELD_OF_STUDY,
        rf"\b(?:majoring in|major(?: is| to)|(?:(?:(?:is|am|are|was|been|now|currently|still"
        rf"|['’]s) )studying|(?<!with )(?<!my )(?<!her )(?<!his )(?<!their )(?<!our )(?<!of )"
        rf"(?<!the )studies)(?! (?:at|to|for|hard|into|with|and|but|or|so|are|were|is)\b)"
        # a thing studied or studies that say something are no field: "studying the Toulmin
        # model", "gender studies that Robert shared", "linguistic studies support the use of"
        rf"(?! (?:the|a|an|this|that|these|those|how|what|why|which|who|some|up|show|shows"
        rf"|suggest|suggests|support|supports|found|find|have|has)\b)"
        rf"|switched (?:her|his|their) major (?:from [\w -]+? )?to|(?:degree|PhD|doctorate"
        rf"|masters?|master['’]s|BA|BSc|MSc|MA|diploma|thesis|dissertation) (?:is )?(?:in|on)) {V}",
    ),
    # the course changed: "switched courses to architecture", "changed her major to law", "moved
    # their PhD into climate modelling"
    _p(
        Slot.FIELD_OF_STUDY,
        rf"\b(?:switched|changed|moved|transferred|swapped) (?:(?:her|his|their|my|the) )?"
        rf"(?:courses?|majors?|degrees?|programmes?|programs?|subjects?|PhD|thesis|studies"
        rf"|research) (?:from [\w -]+? )?(?:over )?(?:to|into|for) {V}",
    ),
    # the field named before its course: "transferred into the data science masters instead"
    _p(
        Slot.FIELD_OF_STUDY,
        r"\b(?:switched|changed|moved|transferred|swapped) (?:over )?(?:in)?to (?:the |a |an )?"
        r"(?P<v>(?!(?:new|different|another|other)\b)[a-z][\w-]*(?: [a-z][\w-]*){0,2}?) "
        r"(?:masters?|master['’]s|degree|course"
        r"|programme|program|major|PhD|BA|BSc|MSc|MA)\b",
    ),
    # "in her second year of medicine", "Maya's course is nursing"
    _p(
        Slot.FIELD_OF_STUDY,
        rf"\b(?:first|second|third|fourth|final|\d(?:st|nd|rd|th)) year of (?:a |an |her |his "
        rf"|their )?(?!(?:uni|university|college|school|high school|the)\b){V}",
    ),
    _p(
        Slot.FIELD_OF_STUDY,
        rf"(?:{POSS}|\b(?:her|his|their|my|our)) (?:new )?(?:course|major|subject|programme"
        rf"|program) is (?:now )?(?:in )?(?!(?:hard|great|going|so|too|very|really|a|the)\b){V}",
    ),
    # a bare switch to a field of study: "changed to psychology", "switched over to law"
    _p(
        Slot.FIELD_OF_STUDY,
        rf"\b(?:switched|changed|moved|transferred) (?:over )?(?:from [\w -]+? )?to "
        rf"(?P<v>{FIELDS})\b",
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
        rf"|studies at|studying at) "
        # a course taken is not a school attended: "enrolled in a 4-week online course"
        rf"(?!(?:a |an |the |my |her |his |their )?(?:[\w-]+ ){{0,3}}?(?:course|class|workshop"
        rf"|module|webinar|bootcamp|seminar|programme|program)s?\b){V}",
    ),
)
