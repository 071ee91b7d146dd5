"""Write-path scoring (docs/write-path.md): importance, surprise, confidence, trust, tagging.

Contract: every function here is pure, reads no clock and does no I/O; scores are floats in
[0, 1] and bad input (NaN, a channel outside [0, 1], a naive datetime) raises ``InvalidInput``.
``importance`` is the 4-channel composite (novelty 0.25, arousal 0.30, reward 0.25,
attention 0.20) times an encoding boost in [0.7, 1.3], clamped to [0, 1]; ``priority`` buckets
it. ``novelty_from_similarity`` is the prediction error (1 − closest cosine) and
``surprise`` the k-NN distance (1 − mean of the top-k cosines). ``confidence_tier`` splits
confidence at the 0.40 (speculative) and the 0.70 (injection gate), and
``source_trust`` is the human 1.0 / agent 0.7 / ingest 0.5. ``peer_similarities`` picks
the stored neighbours novelty and surprise are measured against: those about the same subject
and slot, so two parallel facts about two people are equally novel. ``score_candidate`` combines
them into one ``WriteScores``, applying the flashbulb rule (arousal ≥ 0.8 → pinned,
importance ≥ 0.9, stability ×1.5). Synaptic tagging and capture live in ``tagging``.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from kgmem.core.trust import source_trust
from kgmem.core.validation import check_unit
from kgmem.errors import InvalidInput
from kgmem.ingest.extractors.emotion import FLASHBULB_AROUSAL, Emotion, apply_flashbulb
from kgmem.ingest.gate.records import Neighbour
from kgmem.records import Claim

# --- Importance (docs/recall.md) ---------------------------------------------

NOVELTY_WEIGHT = 0.25
AROUSAL_WEIGHT = 0.30
REWARD_WEIGHT = 0.25
ATTENTION_WEIGHT = 0.20
ENCODING_BOOST_MIN, ENCODING_BOOST_MAX = 0.7, 1.3

# The priority levels: critical ≥ 0.8, high ≥ 0.6, normal ≥ 0.4, low below.
PRIORITY_LEVELS: tuple[tuple[float, str], ...] = (
    (0.8, "critical"),
    (0.6, "high"),
    (0.4, "normal"),
)

# at write time a memory is compared with its k = 5 nearest stored memories; a novel one
# gains up to +0.3 importance, a redundant one loses importance. kgmem makes the adjustment
# linear and symmetric around surprise 0.5: +0.3 at surprise 1.0, −0.3 at surprise 0.0.
SURPRISE_K = 5
SURPRISE_MAX_BOOST = 0.3

# utility starts at the 0.5 neutral prior that its decay drifts back towards; the reward
# and attention channels default to the same "no evidence either way" value.
NEUTRAL_PRIOR = 0.5

# --- Confidence and trust ----------------------------------------------------------------------

# confidenceTier speculative below 0.40 (auto-expires after 30 days unconfirmed).
# The confidence-gated injection draws its next line at 0.70 (full injection above it).
SPECULATIVE_BELOW = 0.40
CONFIDENT_FROM = 0.70


def _clamp01(value: float) -> float:
    return min(1.0, max(0.0, value))


def importance(
    novelty: float,
    arousal: float,
    reward: float,
    attention: float,
    *,
    encoding_boost: float = 1.0,
) -> float:
    """The weighted channel sum times the encoding boost, clamped to [0, 1]."""
    composite = (
        check_unit(novelty, what="novelty") * NOVELTY_WEIGHT
        + check_unit(arousal, what="arousal") * AROUSAL_WEIGHT
        + check_unit(reward, what="reward") * REWARD_WEIGHT
        + check_unit(attention, what="attention") * ATTENTION_WEIGHT
    )
    if (
        isinstance(encoding_boost, bool)
        or not isinstance(encoding_boost, int | float)
        or not ENCODING_BOOST_MIN <= encoding_boost <= ENCODING_BOOST_MAX
    ):
        raise InvalidInput(
            f"encoding_boost must be in [{ENCODING_BOOST_MIN}, {ENCODING_BOOST_MAX}], "
            f"got {encoding_boost!r}"
        )
    return _clamp01(composite * encoding_boost)


def priority(importance: float) -> str:
    """The priority level of an importance: critical, high, normal or low."""
    value = check_unit(importance, what="importance")
    return next((name for floor, name in PRIORITY_LEVELS if value >= floor), "low")


def _cosine(value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidInput(f"a cosine similarity must be a finite number, got {value!r}")
    # float32 embeddings give cosines a hair outside [-1, 1]; that is rounding, not bad input.
    return min(1.0, max(-1.0, float(value)))


def novelty_from_similarity(max_cos: float | None) -> float:
    """The prediction error PE = 1 − similarity to the closest stored memory.

    ``None`` (nothing stored yet) is maximally novel. A negative cosine is no more novel than an
    unrelated one, so PE is clamped to [0, 1].
    """
    if max_cos is None:
        return 1.0
    return _clamp01(1.0 - _cosine(max_cos))


def surprise(neighbour_similarities: Sequence[float], k: int = SURPRISE_K) -> float:
    """The k-NN surprise: 1 − mean of the ``k`` highest cosines; 1.0 with no neighbours."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InvalidInput(f"k must be a positive integer, got {k!r}")
    cosines = sorted((_cosine(s) for s in neighbour_similarities), reverse=True)[:k]
    if not cosines:
        return 1.0
    return _clamp01(1.0 - sum(cosines) / len(cosines))


def surprise_adjustment(surprise_score: float, max_boost: float = SURPRISE_MAX_BOOST) -> float:
    """The importance nudge: +0.3 for a fully novel memory, −0.3 for a duplicate."""
    return check_unit(max_boost, what="max_boost") * (
        2.0 * check_unit(surprise_score, what="surprise") - 1.0
    )


def peer_similarities(
    neighbours: Sequence[Neighbour], claim: Claim | None, entities: Collection[str]
) -> list[float]:
    """The cosines to the neighbours a memory's novelty is measured against: its peers.

    A memory is novel for what it says about its subject, not for having been stored first:
    "Bob's phone number is ..." after "Alice's phone number is ..." is about someone else, so the
    close wording of the two is not redundancy. A neighbour that shares none of the memory's
    entities is about someone else and never a peer; when both carry a claim, a peer also has
    the same subject and slot. A memory that names no entity has no subject to tell apart: every
    neighbour is a peer unless both claims say otherwise (a repeated "the meeting is at 3pm" is
    still redundant). Entities come first because they are read from the memory's own words; a
    claim's subject may be the speaker.
    """
    own = set(entities)

    def peer(n: Neighbour) -> bool:
        if own and not own.intersection(n.entities):
            return False
        if claim is not None and n.claim is not None:
            return (n.claim.subject, n.claim.slot) == (claim.subject, claim.slot)
        return True

    return [n.similarity for n in neighbours if peer(n)]


def confidence_tier(conf: float) -> str:
    """``speculative`` below 0.40 (docs/recall.md), ``tentative`` below 0.70, else ``confident``."""
    value = check_unit(conf, what="confidence")
    if value < SPECULATIVE_BELOW:
        return "speculative"
    return "tentative" if value < CONFIDENT_FROM else "confident"


def flashbulb(emotion: Emotion) -> Emotion:
    """``emotion`` with its flashbulb flag set whenever arousal ≥ 0.8 (docs/recall.md).

    ``detect_emotion`` sets the flag itself; an LLM extractor's arousal or a hand-built
    ``Emotion`` may not, and the rule must not depend on who measured the arousal.
    """
    if emotion.flashbulb or emotion.arousal < FLASHBULB_AROUSAL:
        return emotion
    return replace(emotion, flashbulb=True)


@dataclass(frozen=True)
class WriteScores:
    """Everything the scoring stage decides about one memory about to be written."""

    importance: float  # final: 4-channel composite + surprise nudge, then the flashbulb floor
    base_importance: float  # the 4-channel composite alone (for the audit trail / X-ray)
    priority: str  # critical | high | normal | low
    novelty: float  # prediction error against the closest stored peer (peer_similarities)
    surprise: float  # k-NN distance to the stored peers
    confidence: float
    confidence_tier: str  # speculative | tentative | confident
    pinned: bool
    flashbulb: bool
    stability_multiplier: float  # 1.5 for a flashbulb memory, else 1.0
    source_trust: float
    utility: float = NEUTRAL_PRIOR


def score_candidate(
    *,
    confidence: float,
    emotion: Emotion | None = None,
    neighbour_similarities: Sequence[float] = (),
    reward: float = NEUTRAL_PRIOR,
    attention: float = NEUTRAL_PRIOR,
    encoding_boost: float = 1.0,
    source: str = "agent",
    pinned: bool = False,
    k: int = SURPRISE_K,
    surprise_boost: float = SURPRISE_MAX_BOOST,
) -> WriteScores:
    """Score one candidate from its confidence, emotion and cosines to its stored neighbours.

    The novelty channel is the prediction error against the closest neighbour and the
    arousal channel is the emotion's arousal, which already counts urgency words, exclamation
    marks and caps ("errors, security, deadlines"). Reward ("how useful has similar
    information been") and attention ("how relevant to the current context") are measured by the
    caller; without evidence they sit at the neutral 0.5. The surprise nudge (±``surprise_boost``)
    comes on top of the composite and the flashbulb floor on top of that.
    """
    emo = flashbulb(emotion if emotion is not None else Emotion())
    sims = [_cosine(s) for s in neighbour_similarities]
    novelty = novelty_from_similarity(max(sims) if sims else None)
    surprise_score = surprise(sims, k)
    base = importance(novelty, emo.arousal, reward, attention, encoding_boost=encoding_boost)
    final = apply_flashbulb(
        _clamp01(base + surprise_adjustment(surprise_score, surprise_boost)), emo
    )
    conf = check_unit(confidence, what="confidence")
    return WriteScores(
        importance=final,
        base_importance=base,
        priority=priority(final),
        novelty=novelty,
        surprise=surprise_score,
        confidence=conf,
        confidence_tier=confidence_tier(conf),
        pinned=bool(pinned) or emo.pinned,
        flashbulb=emo.flashbulb,
        stability_multiplier=emo.stability_multiplier,
        source_trust=source_trust(source),
    )
