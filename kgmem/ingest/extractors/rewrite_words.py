"""Word lists of the third-person rewrite (``rewrite``) and the discourse openers it drops.

Verb agreement reads ``ADVERBS`` (skipped between a subject and its verb), ``KEEP`` and
``BASE_ED_ING`` (which forms take no -s), ``NOT_VERBS``, ``IRREGULAR_3SG`` and ``INVERTED``;
"you" reads ``CLAUSE_OPENERS``, ``PLURAL_YOU`` and ``FILLER_YOU``; the singular-they rule reads
``OTHERS``, ``NOT_OTHERS``, ``OTHER_RE`` and ``CLAUSE_END`` (who else a "their" could mean).
``OPENER_RE`` matches the discourse fillers a memory does not keep ("Actually,", "Big news:",
"Oh and"). Pure data, compiled once at import.
"""

from __future__ import annotations

import re

from kgmem.core.text import word_set
from kgmem.ingest.extractors.classification import KIN_GENDER

# Adverbs that may sit between a subject and its verb ("I really like" → "really likes").
ADVERBS = word_set(
    """really also just always never usually often sometimes still actually definitely totally
    absolutely truly honestly generally typically normally rarely seldom only even already
    recently finally mostly probably certainly literally seriously personally genuinely kinda
    sorta too so currently constantly occasionally frequently now then last first once later
    soon again ever"""
)
# Forms that never take a third-person -s: modals, past tenses and participles (including verbs
# whose past equals their present, which we cannot tell apart and so leave as they are).
KEEP = word_set(
    """can could will would shall should may might must ought cannot can't couldn't won't
    wouldn't shouldn't mustn't didn't wasn't ain't gonna was had did went got made said saw met
    took came gave found thought knew felt told left kept brought bought began ran wrote sent
    spent built lost won heard held stood understood taught caught sat became chose drove ate
    drank fell flew forgot grew hung paid rode rose sang slept spoke swam threw woke wore meant
    broke led fed fought sought dealt dreamt learnt burnt lit shot sold struck tore drew hid bit
    lay lent stuck swore shook dug forgave froze been done gone seen known taken given begun
    written spoken eaten driven fallen flown grown thrown worn broken chosen forgotten hidden
    ridden risen stolen woken beaten bitten drawn gotten proven frozen shaken mistaken read put
    cut let set hit hurt quit cost shut spread bet burst cast split misspoke misread misheard
    misunderstood mistook overslept overheard overtook outgrew withdrew rebuilt rewrote retook"""
)
# Words after a subject that are not verbs at all: coordination, determiners, pronouns, numbers.
NOT_VERBS = word_set(
    """and or but nor to a an the all both each two three guys folks alone myself yourself
    ourselves i me my mine we us our ours you your yours he him his she her hers it its they
    them their theirs this that these those of in on at for with from by as if who which what"""
)
# The rare base verbs that end in -ed or -ing (everything else so ending is past or a gerund).
BASE_ED_ING = word_set(
    """need feed bleed breed speed proceed succeed exceed heed seed weed embed shed shred wed
    bring sing ring sting swing cling fling wring spring string"""
)
IRREGULAR_3SG = {
    "am": "is", "are": "is", "were": "was", "have": "has", "do": "does", "go": "goes",
    "be": "is", "haven't": "hasn't", "don't": "doesn't", "aren't": "isn't", "weren't": "wasn't",
    "gotta": "has to", "wanna": "wants to",
}  # fmt: skip
# Inverted auxiliaries before a rewritten subject ("Are you" → "Is Melanie").
INVERTED = {
    "am": "is", "are": "is", "were": "was", "have": "has", "do": "does", "haven't": "hasn't",
    "don't": "doesn't", "aren't": "isn't", "weren't": "wasn't",
}  # fmt: skip
# Words after which a "you" opens a clause (so it is a subject): punctuation is handled apart.
CLAUSE_OPENERS = word_set(
    """and but so because cause if when that as since though although while where whether why
    how what who then until unless before after once know think hope guess believe bet wish feel
    knew thought hoped felt glad sure proud happy sorry seems seem seemed sounds"""
)
SUBJECT_PRONOUNS = word_set("i we you he she they it")
CONTRACTION = {"m": " is", "re": " is", "ve": " has", "ll": " will", "d": " would"}
# "you" that is plainly plural or a filler ("you guys", "you know,") is not the addressee.
PLURAL_YOU = word_set("guys all both two folks people lot")
FILLER_YOU = word_set("know see mean")

# Words after which a "their" for the speaker could be read as someone else: persons and plurals.
OTHERS = word_set(
    """you your yours yourself yourselves he him his she her hers they them their theirs
    themselves we us our ours everyone everybody someone somebody anyone anybody nobody people
    person guy girl boy man men woman women kid child children baby babies family team group
    class crew staff company couple club band committee audience doctor nurse"""
) | frozenset(KIN_GENDER)
# Words that end like a plural ("-s") or a person noun ("-er", "-or", "-ist", "-ian") but are not.
NOT_OTHERS = word_set(
    """was has does is as this always perhaps sometimes towards afterwards besides unless whereas
    across less plus thus news series yes its after over under never ever other another rather
    either neither whether however together later earlier better"""
)
OTHER_RE = re.compile(r".{2,}(?:[^su']s|er|ers|or|ors|ist|ists|ian|ians)")
CLAUSE_END = frozenset(".!?;:\n")


# Discourse fillers that open a sentence: with their punctuation ("Actually,", "Big news:",
# "By the way,"), or bare before a first-person subject ("So I", "Oh and we", "Honestly my").
_FILLERS = (
    r"actually|honestly|frankly|basically|anyway|anyways|well|so|oh|ok|okay|alright|also|plus"
    r"|btw|by\s+the\s+way|fyi|fun\s+fact|guess\s+what|(?:big|good|great|bad|some|exciting)\s+news"
    r"|news|(?:quick\s+|small\s+|little\s+)?update|just\s+so\s+you\s+know|to\s+be\s+honest|tbh"
    r"|in\s+fact|um+|uh+|oh\s+and|and\s+also|and|but\s+anyway"
)
OPENER_RE = re.compile(
    rf"(?:\s*(?:(?:and|oh)\s+)?(?:(?:{_FILLERS})\s*(?:[,:!—–]+|\.\.\.|…|\s-)\s*"
    rf"|(?:{_FILLERS})\s+(?=(?:i|i'm|i've|i'll|i'd|my|we|we're|we've|our)\b)))+",
    re.IGNORECASE,
)
