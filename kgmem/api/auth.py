"""API keys: who is calling, and which namespaces they may read and write.

A key maps to a list of namespaces, or to ``["*"]`` for an admin key that may use every
namespace. Keys come from ``Settings.api_keys`` and, merged over them, the JSON file named by
``Settings.api_keys_file`` (same shape: ``{"<key>": ["ns", ...]}``). A request presents its key as
``Authorization: Bearer <key>`` or ``X-API-Key: <key>``. Only SHA-256 digests of the keys are kept,
and a presented key is compared with every one of them with ``hmac.compare_digest`` — no early
exit — so timing says nothing about which key, or how much of one, matched. A caller is known in
logs and audit records by a short fingerprint of its key, never the key. With no keys configured
every request is refused, unless ``api_auth_disabled`` makes every caller an admin (local use).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from kgmem.api.errors import Forbidden
from kgmem.core.validation import check_namespace
from kgmem.errors import ConfigError, InvalidInput
from kgmem.settings import Settings

ADMIN = "*"
MIN_KEY_CHARS = 16  # short keys are guessable; refuse them at startup rather than serve with them


@dataclass(frozen=True)
class Principal:
    """An authenticated caller. ``namespaces`` is None for an admin (every namespace)."""

    name: str
    namespaces: frozenset[str] | None

    @property
    def is_admin(self) -> bool:
        return self.namespaces is None

    def allows(self, namespace: str) -> bool:
        return self.namespaces is None or namespace in self.namespaces


def namespace_for(principal: Principal, requested: str | None, default: str) -> str:
    """The namespace a call by ``principal`` will use: the one ``requested``, if the key may use
    it (else :class:`Forbidden`, before any I/O); otherwise the key's only namespace, or
    ``default`` for an admin. GraphQL and MCP both resolve every namespace argument here."""
    if requested is not None:
        ns = check_namespace(requested)
        if not principal.allows(ns):
            # Same answer whether or not the namespace exists: nothing about it leaks.
            raise Forbidden(f"this API key may not use namespace {ns!r}")
        return ns
    if principal.namespaces is None:
        return default
    if len(principal.namespaces) == 1:
        return next(iter(principal.namespaces))
    raise InvalidInput(
        "this API key covers several namespaces: name one with the namespace argument"
    )


ANONYMOUS_ADMIN = Principal("auth-disabled", None)
NOBODY = Principal("anonymous", frozenset())  # may use no namespace at all


def fingerprint(key: str) -> str:
    return "key:" + hashlib.sha256(key.encode()).hexdigest()[:10]


class KeyRing:
    """The configured keys, as digests, and the lookup that authenticates a presented key."""

    def __init__(self, keys: Mapping[str, list[str]]) -> None:
        self._entries: list[tuple[bytes, Principal]] = []
        for key, namespaces in keys.items():
            if not isinstance(key, str) or len(key) < MIN_KEY_CHARS:
                raise ConfigError(
                    f"an API key ({fingerprint(str(key))}) is shorter than {MIN_KEY_CHARS} "
                    "characters; use a long random key (e.g. `openssl rand -hex 24`)"
                )
            digest = hashlib.sha256(key.encode()).digest()
            self._entries.append((digest, Principal(fingerprint(key), _scope(key, namespaces))))

    @classmethod
    def from_settings(cls, settings: Settings) -> KeyRing:
        keys = dict(settings.api_keys)
        if settings.api_keys_file is not None:
            keys.update(read_key_file(settings.api_keys_file))
        return cls(keys)

    def __len__(self) -> int:
        return len(self._entries)

    def authenticate(self, presented: str | None) -> Principal | None:
        """The principal of a presented key, or None. Every digest is compared, always."""
        if not presented:
            return None
        digest = hashlib.sha256(presented.encode()).digest()
        found: Principal | None = None
        for known, principal in self._entries:
            if hmac.compare_digest(digest, known):
                found = principal
        return found


def _scope(key: str, namespaces: object) -> frozenset[str] | None:
    if not isinstance(namespaces, list) or not namespaces:
        raise ConfigError(f"API key {fingerprint(key)} needs a non-empty list of namespaces")
    if ADMIN in namespaces:
        return None
    try:
        return frozenset(check_namespace(ns) for ns in namespaces)
    except InvalidInput as exc:
        raise ConfigError(f"API key {fingerprint(key)}: {exc.message}") from None


def read_key_file(path: Path) -> dict[str, list[str]]:
    """Keys from a JSON file ``{"<key>": ["ns", ...]}``; a clear ConfigError if it is unusable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read the API key file {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"the API key file {path} is not valid JSON (line {exc.lineno})"
        ) from None
    if not isinstance(data, dict):
        raise ConfigError(f'the API key file {path} must hold an object {{"<key>": ["ns", ...]}}')
    return data


def presented_key(headers: Mapping[str, str]) -> str | None:
    """The key a request presents: ``Authorization: Bearer <key>`` or ``X-API-Key: <key>``."""
    auth = headers.get("authorization", "")
    scheme, _, value = auth.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    key = headers.get("x-api-key", "").strip()
    return key or None
