"""The core's time and text helpers and a lease holder's id: what every stage relies on."""

from __future__ import annotations

import os
import re
import socket
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem.core.holders import new_holder
from kgmem.core.namespaces import DEFAULT_NAMESPACE, recall_namespaces
from kgmem.core.text import escape_term, first_token
from kgmem.core.time import as_utc
from kgmem.errors import InvalidInput

# Lucene's special characters: escape_term must leave none of them unescaped
_UNESCAPED_SPECIAL = re.compile(r'(?<!\\)(?:\\\\)*[+\-&|!(){}\[\]^"~*?:/]')


def test_as_utc_reads_naive_as_utc_and_converts_other_zones() -> None:
    naive = datetime(2025, 3, 1, 12, 0)
    assert as_utc(naive) == datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
    plus_two = datetime(2025, 3, 1, 14, 0, tzinfo=timezone(timedelta(hours=2)))
    converted = as_utc(plus_two)
    assert converted.tzinfo is UTC and converted.hour == 12
    assert as_utc("2025-03-01T12:00:00Z") == datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
    with pytest.raises(InvalidInput, match="observed_at is not an ISO-8601"):
        as_utc("yesterday", "observed_at")
    with pytest.raises(InvalidInput, match="must be a datetime"):
        as_utc(1_700_000_000)


@given(
    st.datetimes(timezones=st.sampled_from([UTC, timezone(timedelta(hours=-5))])) | st.datetimes()
)
def test_as_utc_keeps_the_instant_and_is_idempotent(value: datetime) -> None:
    out = as_utc(value)
    assert out.tzinfo is UTC and as_utc(out) == out
    assert out == (value if value.tzinfo else value.replace(tzinfo=UTC))
    assert as_utc(out.isoformat()) == out


def test_escape_term_makes_operators_and_keywords_plain() -> None:
    assert escape_term("AND") == "and" and escape_term("And") == "And"
    assert escape_term("c++") == r"c\+\+"
    assert escape_term("a:b") == r"a\:b"


@given(st.text(max_size=30))
def test_escape_term_leaves_no_lucene_special_unescaped(term: str) -> None:
    assert _UNESCAPED_SPECIAL.search(escape_term(term)) is None


def test_first_token_is_the_first_word_of_a_normalised_name() -> None:
    assert first_token("ana lopez") == "ana"
    assert first_token("ana") == "ana"
    assert first_token("") == ""


def test_a_recall_reads_its_namespace_and_the_default_one() -> None:
    assert recall_namespaces(DEFAULT_NAMESPACE) == (DEFAULT_NAMESPACE,)
    assert recall_namespaces("project-x") == ("project-x", DEFAULT_NAMESPACE)


def test_a_holder_names_this_process_and_differs_per_call() -> None:
    first, second = new_holder(), new_holder()
    host, pid, _ = first.rsplit(":", 2)
    assert (host, pid) == (socket.gethostname(), str(os.getpid()))
    assert first != second
