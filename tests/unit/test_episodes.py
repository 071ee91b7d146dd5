"""Durable intake identity: the episode id is the turn as the caller sent it, never our clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from kgmem.ingest.turns.episodes import check_turn, episode_properties
from kgmem.records import Turn

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def _props(turn: Turn, now: datetime) -> dict[str, object]:
    return episode_properties("ns", check_turn(turn), seq=1, now=now)


_TEXT = st.text(st.characters(categories=("L", "N", "P", "Zs")), min_size=1, max_size=80)


@given(_TEXT.filter(str.strip), st.integers(1, 10**6))
def test_a_retried_turn_without_at_names_the_same_episode(text: str, seconds: int) -> None:
    turn = Turn(text=text, speaker="Ana", session_id="s1")
    first, retry = _props(turn, T0), _props(turn, T0 + timedelta(seconds=seconds))
    assert first["id"] == retry["id"]


def test_a_turn_without_at_is_dated_at_intake() -> None:
    props = _props(Turn(text="I moved to Lisbon."), T0)
    assert props["at"] == T0


def test_the_callers_own_time_is_kept_and_distinguishes_repeats() -> None:
    old = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    first = _props(Turn(text="ok", session_id="s1", at=old), T0)
    again = _props(Turn(text="ok", session_id="s1", at=old + timedelta(minutes=3)), T0)
    assert first["at"] == old and first["id"] != again["id"]


def test_a_turn_id_distinguishes_identical_turns_without_at() -> None:
    first = _props(Turn(text="ok", session_id="s1", turn_id="1:1"), T0)
    again = _props(Turn(text="ok", session_id="s1", turn_id="1:2"), T0)
    assert first["id"] != again["id"]


def test_the_identity_does_not_change_for_turns_that_carry_at() -> None:
    # Episodes stored before this rule keep their ids: a turn with ``at`` hashes as it always did.
    at = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    turn = Turn(text="I love hiking.", speaker="Mel", session_id="s1", at=at, turn_id="D1:3")
    assert _props(turn, T0)["id"] == _props(turn, T0 + timedelta(days=9))["id"]
