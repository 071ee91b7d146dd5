"""The one error root and its typed subclasses.

Every failure a user can cause or meet is a ``KgmemError`` with a message that says what went
wrong and, where there is one, what to do about it. Callers (CLI, API) catch ``KgmemError`` and
show its message; anything else is a bug and is reported as such, never as a stack trace to users.
"""

from __future__ import annotations


class KgmemError(Exception):
    """Root of every error kgmem raises on purpose."""

    code = "kgmem_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidInput(KgmemError):
    """The caller sent something kgmem will not accept; nothing was written."""

    code = "invalid_input"


class InvalidOption(InvalidInput):
    """An option (a recall's profile, mode, channels, ...) has a value kgmem does not accept;
    ``option`` names it and ``allowed`` lists the accepted values where there is a fixed set.
    Raised before anything runs; its code stays ``invalid_input`` for every interface."""

    def __init__(self, option: str, message: str, allowed: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.option = option
        self.allowed = allowed


class NotFound(KgmemError):
    """A memory, entity or other record named by the caller does not exist in its namespace."""

    code = "not_found"


class GraphUnavailable(KgmemError):
    """Neo4j cannot be reached, or went away mid-operation; the write was rolled back."""

    code = "graph_unavailable"


class GraphAuthError(KgmemError):
    """Neo4j refused the configured credentials."""

    code = "graph_auth"


class LauncherError(KgmemError):
    """The local Neo4j launcher could not build, start or stop the server."""

    code = "launcher"


class ModelUnavailable(KgmemError):
    """A model package (embedder or spaCy pipeline) is not installed or failed to load."""

    code = "model_unavailable"


class LLMError(KgmemError):
    """The configured LLM failed in a way the caller should know about (after retries)."""

    code = "llm_error"


class ConfigError(KgmemError):
    """A setting has a value kgmem cannot work with."""

    code = "config_error"


class ConcurrentWrite(KgmemError):
    """Another writer changed the same records first; the transaction was rolled back."""

    code = "concurrent_write"


class WriteRace(ConcurrentWrite):
    """A concurrent writer stored a memory or entity this write planned to create; the
    transaction was rolled back and the write is planned again against what is stored now."""


def primary(exc: BaseException) -> BaseException:
    """The error that explains ``exc``: itself, or for an exception group (task groups wrap their
    children's failures in one) the first ``KgmemError`` among its leaves, else its first leaf.
    Every surface (API, CLI) reads errors through this, so a ``GraphUnavailable`` raised in a
    task group is still "unavailable"."""
    if not isinstance(exc, BaseExceptionGroup):
        return exc
    leaves = [primary(e) for e in exc.exceptions]
    typed = [e for e in leaves if isinstance(e, KgmemError)]
    return (typed or leaves or [exc])[0]
