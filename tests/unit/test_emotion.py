"""The emotion lexicon reads valence, arousal and an Ekman category from known sentences,
handles negation, intensifiers and "but", marks the flashbulb memories (arousal ≥ 0.8 →
pinned, importance ≥ 0.9, stability ×1.5), and stays in bounds on any string."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgmem.errors import InvalidInput
from kgmem.ingest.extractors.emotion import (
    _LEXICON,
    FLASHBULB_AROUSAL,
    Emotion,
    apply_flashbulb,
    detect_emotion,
    same_valence,
)


@pytest.mark.parametrize(
    ("text", "category", "sign"),
    [
        ("I'm so happy for you", "joy", 1),
        ("I feel sad today", "sadness", -1),
        ("I'm furious with the landlord", "anger", -1),
        ("I'm scared of the dark", "fear", -1),
        ("Wow, I was so surprised", "surprise", 1),
        ("That smell is disgusting", "disgust", -1),
        ("The meeting is at 3pm in room 4.", "neutral", 0),
        ("This is awful", "sadness", -1),  # evaluative word only: category from the sign
        ("Çok mutluyum", "joy", 1),  # Turkish stem (kgmem detects EN + TR)
        ("Mutlu değilim", "sadness", -1),  # Turkish negation follows the word
    ],
)
def test_known_sentences(text: str, category: str, sign: int) -> None:
    e = detect_emotion(text)
    assert e.category == category
    assert (e.valence > 0) - (e.valence < 0) == sign


def test_negation_flips_and_damps() -> None:
    happy, not_happy = detect_emotion("I am happy"), detect_emotion("I am not happy")
    assert happy.valence > 0 > not_happy.valence
    assert abs(not_happy.valence) < abs(happy.valence)
    assert not_happy.category == "sadness"
    assert detect_emotion("I don't really feel very happy").valence < 0
    assert detect_emotion("not bad at all").valence > 0
    assert detect_emotion("I'm not sad").category == "neutral"
    assert detect_emotion("I can't wait for the trip").valence > 0  # a phrase, not a negation


def test_intensifiers_and_diminishers() -> None:
    plain = detect_emotion("I am happy")
    very = detect_emotion("I am very happy")
    bit = detect_emotion("I am a bit happy")
    assert bit.valence < plain.valence < very.valence
    assert very.arousal > plain.arousal
    assert detect_emotion("What kind of music do you like?") == Emotion()


def test_but_weights_the_second_clause() -> None:
    assert detect_emotion("It was good but exhausting").valence < 0
    assert detect_emotion("It was exhausting but good").valence > 0


def test_arousal_from_exclamations_caps_and_urgency() -> None:
    calm = detect_emotion("I am angry")
    assert detect_emotion("I am angry!!").arousal > calm.arousal
    assert detect_emotion("I am ANGRY").arousal > calm.arousal
    urgent = detect_emotion("URGENT: the server is down!!!")
    assert urgent.arousal >= FLASHBULB_AROUSAL and urgent.category == "neutral"


@pytest.mark.parametrize(
    "text",
    ["I am absolutely TERRIFIED!!!", "We got engaged!!!", "My dad passed away last night"],
)
def test_flashbulb(text: str) -> None:
    e = detect_emotion(text)
    assert e.arousal >= 0.8 and e.flashbulb and e.pinned
    assert e.importance_floor == 0.9 and e.stability_multiplier == 1.5
    assert apply_flashbulb(0.3, e) == 0.9
    assert apply_flashbulb(0.95, e) == 0.95


@pytest.mark.parametrize("text", ["I had lunch.", "I am happy", "I am so happy!!!", "ok!!!"])
def test_not_flashbulb(text: str) -> None:
    e = detect_emotion(text)
    assert not e.flashbulb and not e.pinned
    assert apply_flashbulb(0.3, e) == 0.3 and e.stability_multiplier == 1.0


def test_same_valence() -> None:
    assert same_valence(0.6, 0.3) and same_valence(-0.5, -0.9)
    assert not same_valence(0.6, -0.3) and not same_valence(0.0, 0.5)


def test_invalid_input() -> None:
    with pytest.raises(InvalidInput):
        detect_emotion(None)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_bounds_on_any_text(text: str) -> None:
    e = detect_emotion(text)
    assert -1.0 <= e.valence <= 1.0
    assert 0.0 <= e.arousal <= 1.0
    assert e.category in {"joy", "sadness", "anger", "fear", "surprise", "disgust", "neutral"}
    assert e.flashbulb == (e.arousal >= FLASHBULB_AROUSAL)


_CLEAR = sorted(w for w, (_, v, _) in _LEXICON.items() if " " not in w and abs(v) >= 0.3)
_WORDS = ["happy", "sad", "really", "not", "but", "very", "!", "terrified", "good", "awful", "the"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), max_size=30))
def test_bounds_on_dense_emotion_text(words: list[str]) -> None:
    e = detect_emotion(" ".join(words))
    assert -1.0 <= e.valence <= 1.0 and 0.0 <= e.arousal <= 1.0


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(_CLEAR), st.sampled_from(["not", "never", "don't feel", "isn't"]))
def test_negation_flips_sign_of_one_clear_word(word: str, negator: str) -> None:
    plain = detect_emotion(f"It is {word}.")
    negated = detect_emotion(f"It {negator} {word}.")
    assert plain.valence != 0
    assert (plain.valence > 0) == (negated.valence < 0)
    assert negated.valence != 0
