"""Consistency tokens: the bookmarks of a caller's writes, and reads that wait for them.

Contract. On a Neo4j cluster a read may be served by a secondary or read replica that has not
applied the latest commits yet. Every transaction the driver commits yields a *bookmark* (an
opaque ASCII string naming that commit); a read session opened with bookmarks starts only once
its server has applied them. :func:`collecting` opens a scope whose writes' bookmarks are
gathered into the set it yields — the API opens one per request and returns the set as the
response's consistency token; :func:`reading_after` opens a scope whose reads carry given
bookmarks — the API opens one when a recall passes a token back. ``GraphClient`` (the one place
that opens sessions) calls :func:`record` after every write and :func:`wanted` before every
read. Both scopes are context variables, so concurrent requests on one event loop never see
each other's, and tasks a request starts (a recall's parallel searches) inherit its scope.
:func:`check_bookmarks` refuses a token that cannot be one before any I/O. No I/O here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from kgmem.errors import InvalidInput

MAX_BOOKMARKS = 32  # a token from one request names a few commits; more is not a token
MAX_BOOKMARK_CHARS = 1000

_written: ContextVar[set[str] | None] = ContextVar("kgmem_written_bookmarks", default=None)
_after: ContextVar[tuple[str, ...]] = ContextVar("kgmem_read_after", default=())


@contextmanager
def collecting() -> Iterator[set[str]]:
    """A scope whose writes' bookmarks are added to the set yielded (read it after the work)."""
    gathered: set[str] = set()
    token = _written.set(gathered)
    try:
        yield gathered
    finally:
        _written.reset(token)


@contextmanager
def reading_after(bookmarks: Sequence[str]) -> Iterator[None]:
    """A scope whose reads see at least the commits ``bookmarks`` name."""
    token = _after.set(tuple(check_bookmarks(bookmarks)))
    try:
        yield
    finally:
        _after.reset(token)


def record(bookmarks: Iterable[str]) -> None:
    """Add a committed write's bookmarks to the collecting scope, if there is one."""
    gathered = _written.get()
    if gathered is not None:
        gathered.update(bookmarks)


def wanted() -> tuple[str, ...]:
    """The bookmarks the current read must wait for (none outside a ``reading_after`` scope)."""
    return _after.get()


def check_bookmarks(bookmarks: Sequence[str]) -> list[str]:
    """The bookmarks of a token, refused (``InvalidInput``) when they cannot be bookmarks."""
    if len(bookmarks) > MAX_BOOKMARKS:
        raise InvalidInput(f"a consistency token holds at most {MAX_BOOKMARKS} bookmarks")
    for value in bookmarks:
        if not value or len(value) > MAX_BOOKMARK_CHARS or not value.isascii():
            raise InvalidInput(
                "a bookmark is the ASCII string a write's response returned "
                f"(1 to {MAX_BOOKMARK_CHARS} characters)"
            )
    return sorted(set(bookmarks))
