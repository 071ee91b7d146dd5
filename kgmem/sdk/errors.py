"""The SDK's remote errors, and how the API's refusals map onto kgmem's typed errors.

Contract. :class:`RemoteError` is an API refusal or failure with the server's stable ``code``;
:class:`RemoteUnavailable` is an API that could not be reached. ``REJECTED_ERRORS`` maps a
``Rejected`` result's code to the error the in-process service raises for the same failure, so
SDK callers catch the same types in either form; ``HTTP_CODES`` names the code of an HTTP-level
refusal by its status.
"""

from __future__ import annotations

from kgmem.errors import ConcurrentWrite, InvalidInput, KgmemError, NotFound


class RemoteError(KgmemError):
    """The API refused or failed a request; ``code`` is its stable error code."""

    code = "remote_error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code:
            self.code = code


class RemoteUnavailable(RemoteError):
    """The API could not be reached (not running, wrong URL, network, timeout)."""

    code = "remote_unavailable"


# A ``Rejected`` result's code → the error the in-process service raises for the same failure.
REJECTED_ERRORS: dict[str, type[KgmemError]] = {
    InvalidInput.code: InvalidInput,
    NotFound.code: NotFound,
    ConcurrentWrite.code: ConcurrentWrite,
}


HTTP_CODES = {
    401: "unauthorized",
    403: "forbidden",
    413: "too_large",
    429: "rate_limited",
    503: "unavailable",
}
