"""Lexicon-based emotion detection and flashbulb marking (docs/write-path.md#scoring-at-write-time).

Contract: ``detect_emotion(text)`` is pure and cheap and returns an ``Emotion`` with ``valence``
in [-1, 1], ``arousal`` in [0, 1], an Ekman ``category`` (joy, sadness, anger, fear, surprise,
disgust) or ``neutral``, and ``flashbulb`` set when arousal ≥ 0.8; it never raises on a string
and raises ``InvalidInput`` on anything else. Valence comes from the word lexicon below, with
negation ("not happy" flips and damps), intensifiers ("very", "extremely") and diminishers ("a
bit"), and a contrastive "but" that weights the clause after it over the one before. Arousal
comes from the lexicon plus, as the seed lists, exclamation marks, CAPS, urgency words and
profanity. A flashbulb memory is pinned, gets importance ≥ 0.9 and a ×1.5 stability boost.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal, cast

from kgmem.errors import InvalidInput

Category = Literal["joy", "sadness", "anger", "fear", "surprise", "disgust", "neutral"]

# arousal >= 0.8 → pinned, importance min 0.9, stability x1.5.
FLASHBULB_AROUSAL = 0.8
FLASHBULB_IMPORTANCE = 0.9
FLASHBULB_STABILITY_BOOST = 1.5

# Why a lexicon and not a model: this runs on every write, where the seed asks for "Pattern-based
# detection (no LLM cost)"; a dictionary lookup is microseconds, deterministic, testable, and
# needs no download. The LLM extractor may still override these values when it is enabled.
# Rows are (category, valence, arousal, words). Category "" marks evaluative words ("great",
# "awful") that move valence but cast no Ekman vote; "~" marks urgency words that move arousal.
# fmt: off
_GROUPS: tuple[tuple[str, float, float, str], ...] = (
    ("joy", 0.9, 0.85, "ecstatic thrilled overjoyed elated euphoric exhilarated jubilant stoked "
                       "got_engaged promoted"),
    ("joy", 0.8, 0.55, "happy happier happiest joyful delighted excited exciting love loved "
                       "loving adore adored proud blessed celebrate celebrated celebrating won "
                       "thankful grateful can't_wait"),
    ("joy", 0.6, 0.4, "glad pleased cheerful enjoy enjoyed enjoying fun hopeful optimistic "
                      "relieved satisfied content inspired motivated confident accomplished "
                      "yay hooray"),
    ("joy", 0.4, 0.15, "calm relaxed peaceful cozy comfortable"),
    ("", 0.75, 0.5, "amazing awesome fantastic fabulous wonderful incredible brilliant superb "
                    "excellent perfect outstanding"),
    ("", 0.5, 0.3, "great good nice lovely beautiful sweet kind success successful best better"),
    ("", 0.3, 0.1, "no_worries no_problem"),
    ("sadness", -0.9, 0.8, "devastated heartbroken grief grieving mourning passed_away died"),
    ("sadness", -0.75, 0.45, "miserable depressed despair hopeless sorrow crying cried tears "
                             "lonely funeral death rejected broke_up"),
    ("sadness", -0.6, 0.35, "sad sadder saddest unhappy upset hurt disappointed disappointing "
                            "regret regretted heartache gloomy helpless failed failure lost "
                            "losing pain painful let_down"),
    ("sadness", -0.35, 0.2, "sorry tired exhausted exhausting bored boring alone sick ill miss"),
    ("", -0.75, 0.55, "terrible horrible awful worst dreadful"),
    ("", -0.45, 0.3, "bad worse poor"),
    ("anger", -0.85, 0.9, "furious enraged livid outraged rage infuriated infuriating seething"),
    ("anger", -0.7, 0.7, "angry mad pissed hate hated hates hating resent resentful hostile "
                         "betrayed fed_up"),
    ("anger", -0.5, 0.55, "annoyed annoying irritated irritating frustrated frustrating "
                          "frustration bothered grumpy cranky unfair rude offended insulted"),
    ("anger", -0.35, 0.85, "damn dammit shit fuck fucking crap bullshit wtf goddamn"),  # profanity
    ("fear", -0.85, 0.9, "terrified horrified panic panicked panicking petrified terrifying "
                         "horrifying freaked_out"),
    ("fear", -0.7, 0.7, "afraid scared frightened fear feared fearful anxious anxiety alarmed "
                        "threatened dangerous dread nightmare"),
    ("fear", -0.5, 0.55, "worried worry worrying nervous uneasy tense stressed stress stressful "
                         "concerned insecure overwhelmed"),
    ("surprise", 0.5, 0.65, "amazed astonished wow"),
    ("surprise", 0.2, 0.6, "surprised surprise surprising unexpected unexpectedly whoa omg "
                           "speechless unbelievable"),
    ("surprise", -0.4, 0.75, "shocked shocking startled stunned"),
    ("disgust", -0.7, 0.6, "disgusted disgusting gross revolting repulsive nauseating sickening "
                           "vile yuck ew eww nasty appalled despise despised loathe"),
    ("disgust", -0.45, 0.35, "dislike distaste creepy"),
    ("~", -0.15, 0.75, "urgent asap immediately emergency critical crisis deadline hurry outage"),
)
# Turkish (the seed detects EN + TR): stems, since Turkish inflects by suffix ("mutluyum" = "I am
# happy"), each mapped to the English entry that carries its scores; "değil" after it negates.
_TR_STEMS = {
    "mutlu": "happy", "sevin": "glad", "harika": "wonderful", "mükemmel": "perfect",
    "üzgün": "sad", "mutsuz": "unhappy", "kızgın": "angry", "sinirli": "annoyed",
    "öfke": "furious", "kork": "afraid", "endişe": "worried", "şaşır": "surprised",
    "iğrenç": "disgusting", "berbat": "awful",
}
# fmt: on
_LEXICON: dict[str, tuple[str, float, float]] = {
    word.replace("_", " "): (cat, val, aro)
    for cat, val, aro, words in _GROUPS
    for word in words.split()
}
# Two-word entries and modifiers are joined into one token before lookup, so "can't wait" is
# not read as a negation and "kind of" is not read as the joy word "kind".
_PHRASES = {w for w in _LEXICON if " " in w} | {"kind of", "sort of", "a bit", "a little"}
_MODIFIERS = {  # multipliers on the next emotion word (VADER-style boosters and dampeners)
    "very": 1.3, "really": 1.25, "so": 1.25, "extremely": 1.5, "incredibly": 1.5, "super": 1.3,
    "totally": 1.3, "absolutely": 1.4, "completely": 1.3, "utterly": 1.4, "deeply": 1.3,
    "truly": 1.25, "quite": 1.1, "too": 1.2, "insanely": 1.5, "freaking": 1.3, "fucking": 1.4,
    "slightly": 0.5, "somewhat": 0.6, "kinda": 0.6, "kind of": 0.6, "sort of": 0.6,
    "a bit": 0.6, "a little": 0.6, "barely": 0.4,
}  # fmt: skip
_NEGATORS = {
    "not", "no", "never", "without", "hardly", "neither", "nor", "nothing", "nobody", "none",
    "cannot", "cant", "dont", "doesnt", "didnt", "isnt", "wasnt", "arent", "werent", "wont",
    "havent", "hasnt", "couldnt", "wouldnt", "shouldnt", "aint",
}  # fmt: skip
_NEGATION_SCOPE = 3  # words (modifiers not counted) a negator reaches, as in VADER
_NEGATION_SCALAR = -0.75  # a negated word flips and weakens: "not happy" is milder than "sad"
_BUT_BEFORE, _BUT_AFTER = 0.5, 1.5  # "it was good but exhausting": the second clause dominates
_CAPS_BOOST = 1.2
_TOKEN = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?|[.!?;,]")


@dataclass(frozen=True)
class Emotion:
    """The emotional reading of one text."""

    valence: float = 0.0  # -1 (negative) .. 1 (positive)
    arousal: float = 0.0  # 0 (calm) .. 1 (intense)
    category: Category = "neutral"
    flashbulb: bool = False

    @property
    def pinned(self) -> bool:
        """Flashbulb memories are pinned: immune to forgetting."""
        return self.flashbulb

    @property
    def importance_floor(self) -> float:
        return FLASHBULB_IMPORTANCE if self.flashbulb else 0.0

    @property
    def stability_multiplier(self) -> float:
        return FLASHBULB_STABILITY_BOOST if self.flashbulb else 1.0


def _tokens(text: str) -> list[tuple[str, str]]:
    """(lowercase, original) tokens with known two-word phrases joined."""
    raw = _TOKEN.findall(text.replace("\u2019", "'"))
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(raw):
        pair = f"{raw[i]} {raw[i + 1]}".lower() if i + 1 < len(raw) else ""
        if pair in _PHRASES:
            out.append((pair, f"{raw[i]} {raw[i + 1]}"))
            i += 2
        else:
            out.append((raw[i].lower(), raw[i]))
            i += 1
    return out


def _lookup(word: str, or_modifier: bool = False) -> tuple[str, float, float] | None:
    if or_modifier and word in _MODIFIERS:
        return ("", 1.0, 0.0)
    if word in _LEXICON:
        return _LEXICON[word]
    stem = next((s for s in _TR_STEMS if word.startswith(s)), None)
    return _LEXICON[_TR_STEMS[stem]] if stem else None


def _is_negator(word: str) -> bool:
    return word in _NEGATORS or word.endswith("n't")


def detect_emotion(text: str) -> Emotion:
    """Valence, arousal, Ekman category and flashbulb flag of ``text``."""
    if not isinstance(text, str):
        raise InvalidInput(f"text must be a string, got {type(text).__name__}")
    tokens = _tokens(text)
    # (valence, arousal, category or a no-vote mark, sentence, token index)
    hits: list[tuple[float, float, str, int, int]] = []
    buts: dict[int, int] = {}
    negate, boost, sentence, caps = 0, 1.0, 0, 0
    for i, (word, orig) in enumerate(tokens):
        if word in {".", "!", "?", ";", ","}:
            sentence += word != ","
            negate, boost = 0, 1.0
            continue
        shouted = len(orig) >= 3 and orig.isupper()
        if word == "but":
            buts[sentence], negate, boost = i, 0, 1.0
        elif _is_negator(word):
            negate = _NEGATION_SCOPE
        elif word in _MODIFIERS and i + 1 < len(tokens) and _lookup(tokens[i + 1][0], True):
            boost *= _MODIFIERS[word] * (_CAPS_BOOST if shouted else 1.0)
            caps += shouted
        elif entry := _lookup(word):
            cat, val, aro = entry
            scale = boost * (_CAPS_BOOST if shouted else 1.0)
            caps += shouted
            val, aro = val * scale, min(1.0, aro * (1 + (scale - 1) / 2))
            if negate > 0 or (i + 1 < len(tokens) and tokens[i + 1][0].startswith("değil")):
                # "not happy" leans sad; "not sad" or "not bad" is no emotion of its own.
                cat = "sadness" if cat == "joy" else "-"
                val, aro = val * _NEGATION_SCALAR, aro * 0.6
            hits.append((val, aro, cat, sentence, i))
            negate, boost = max(0, negate - 1), 1.0
        else:
            negate, boost = max(0, negate - 1), 1.0
    return _combine(hits, buts, text.count("!"), caps)


def _combine(
    hits: list[tuple[float, float, str, int, int]], buts: dict[int, int], bangs: int, caps: int
) -> Emotion:
    total = 0.0
    votes: dict[str, float] = {}
    for val, aro, cat, sentence, index in hits:
        if sentence in buts:
            val *= _BUT_BEFORE if index < buts[sentence] else _BUT_AFTER
        total += val
        if cat.isalpha():  # an Ekman category; "", "~" and "-" (negated) do not vote
            votes[cat] = votes.get(cat, 0.0) + abs(val) + aro
    evaluative = any(h[2] == "" for h in hits)
    # Normalise the sum into (-1, 1) the way VADER does: one strong word ≈ 0.75, more saturate.
    valence = total / math.sqrt(total * total + 0.5) if total else 0.0
    lexical = max((h[1] for h in hits), default=0.0) + min(0.15, 0.05 * max(0, len(hits) - 1))
    arousal = min(1.0, lexical + min(0.1, 0.05 * bangs) + min(0.15, 0.075 * caps))
    category: Category = "neutral"
    if votes:
        category = cast(Category, max(votes, key=lambda c: votes[c]))
    elif evaluative and abs(valence) >= 0.25:  # only "great", "awful"...: lean on the sign
        category = "joy" if valence > 0 else "sadness"
    return Emotion(round(valence, 4), round(arousal, 4), category, arousal >= FLASHBULB_AROUSAL)


def apply_flashbulb(importance: float, emotion: Emotion) -> float:
    """Importance after the flashbulb floor: at least 0.9 for a flashbulb memory."""
    return max(importance, emotion.importance_floor)


def same_valence(a: float, b: float) -> bool:
    """Mood congruence: both clearly positive or both clearly negative."""
    return (a > 0.1 and b > 0.1) or (a < -0.1 and b < -0.1)
