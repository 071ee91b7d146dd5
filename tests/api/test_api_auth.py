"""API keys on the real stack: no key, a wrong key, or a key for another namespace is refused and
nothing is read or written; a key reaches its own namespace; an admin key reaches all."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from api.helpers import ADMIN_KEY, KEY_A, KEY_B, Api, api_settings, running
from kgmem.api import create_app
from kgmem.api.auth import KeyRing
from kgmem.errors import ConfigError
from kgmem.settings import Settings

pytestmark = [pytest.mark.graph, pytest.mark.models]

REMEMBER = """
mutation($text: String!, $ns: String) {
  remember(input: {text: $text, namespace: $ns}) {
    __typename ... on RememberOk { receipt { memoryId } } ... on Rejected { code }
  }
}"""
READ = """
query($id: ID!, $ns: String) {
  memory(id: $id, namespace: $ns) { id content }
  stats(namespace: $ns) { nodes }
}"""


def _seed(api: Api, ns: str, key: str) -> str:
    out = api.ok(REMEMBER, {"text": f"The secret recipe of {ns} uses saffron.", "ns": ns}, key=key)
    assert out["remember"]["__typename"] == "RememberOk", out
    memory_id: str = out["remember"]["receipt"]["memoryId"]
    return memory_id


def test_no_key_and_a_wrong_key_are_refused_before_anything_runs(api: Api) -> None:
    before = api.stats(api.ns_a)
    body = {"query": REMEMBER, "variables": {"text": "Intruder was here.", "ns": api.ns_a}}
    for key, headers in ((None, {}), ("wrong-key-" + "z" * 30, {}), (None, {"X-API-Key": ""})):
        response = api.post(body, key=key, headers=headers)
        assert response.status_code == 401
        error = response.json()["error"]
        assert error["code"] == "unauthorized" and error["message"]
        assert response.headers["www-authenticate"] == "Bearer"
    scheme = api.post(body, key=None, headers={"Authorization": f"Basic {KEY_A}"})
    assert scheme.status_code == 401  # only Bearer (or X-API-Key) carries a key
    assert api.stats(api.ns_a) == before


def test_a_key_for_another_namespace_is_forbidden_and_reads_or_writes_nothing(api: Api) -> None:
    secret = _seed(api, api.ns_b, KEY_B)
    before_a, before_b = api.stats(api.ns_a), api.stats(api.ns_b)

    write = api.gql(REMEMBER, {"text": "Planted by tenant A.", "ns": api.ns_b}, key=KEY_A)
    assert write["data"] is None
    assert write["errors"][0]["extensions"]["code"] == "forbidden"
    read = api.gql(READ, {"id": secret, "ns": api.ns_b}, key=KEY_A)
    assert read["data"] is None
    assert {e["extensions"]["code"] for e in read["errors"]} == {"forbidden"}
    assert "saffron" not in json.dumps(read)
    recall = api.gql(
        'query($ns: String) { recall(query: "secret recipe", namespace: $ns) { __typename } }',
        {"ns": api.ns_b},
        key=KEY_A,
    )
    assert recall["errors"][0]["extensions"]["code"] == "forbidden"
    # Without a namespace, a key works in its own: B's memory id is simply not there.
    own = api.ok(READ, {"id": secret}, key=KEY_A)
    assert own["memory"] is None
    assert api.stats(api.ns_a) == before_a and api.stats(api.ns_b) == before_b


def test_a_key_reaches_its_own_namespace_by_default_and_admin_reaches_all(api: Api) -> None:
    mine = api.ok(REMEMBER, {"text": "Tenant A likes green walls."}, key=KEY_A)["remember"]
    memory_id = mine["receipt"]["memoryId"]
    got = api.ok(READ, {"id": memory_id, "ns": api.ns_a}, key=KEY_A)
    assert got["memory"]["content"] == "Tenant A likes green walls."
    via_header = api.post(
        {"query": READ, "variables": {"id": memory_id}}, key=None, headers={"X-API-Key": KEY_A}
    )
    assert via_header.status_code == 200 and via_header.json()["data"]["memory"]["id"] == memory_id
    for ns in (api.ns_a, api.ns_b):
        assert api.ok(READ, {"id": memory_id, "ns": ns}, key=ADMIN_KEY)["stats"]["nodes"] > 0


def test_keys_come_from_settings_and_a_file_and_bad_keys_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "keys.json"
    path.write_text(json.dumps({"file-key-" + "f" * 20: ["team-x", "team-y"]}))
    ring = KeyRing.from_settings(
        Settings(api_keys={"set-key-" + "s" * 20: ["*"]}, api_keys_file=path)
    )
    assert len(ring) == 2
    admin = ring.authenticate("set-key-" + "s" * 20)
    assert admin is not None and admin.is_admin
    team = ring.authenticate("file-key-" + "f" * 20)
    assert team is not None and team.namespaces == {"team-x", "team-y"}
    assert not team.allows("team-z") and team.name.startswith("key:")
    assert "f" * 20 not in team.name  # a fingerprint, never the key
    assert ring.authenticate("file-key-" + "f" * 19) is None and ring.authenticate("") is None
    bad: list[dict[str, Any]] = [
        {"short": ["a"]},
        {"k" * 20: []},
        {"k" * 20: ["bad namespace!"]},
        {"k" * 20: "ns"},
    ]
    for keys in bad:
        with pytest.raises(ConfigError):
            KeyRing(keys)
    for content in ("{not json", "[1, 2]"):
        path.write_text(content)
        with pytest.raises(ConfigError, match=r"keys\.json"):
            KeyRing.from_settings(Settings(api_keys_file=path))
    with pytest.raises(ConfigError, match="cannot read"):
        KeyRing.from_settings(Settings(api_keys_file=tmp_path / "missing.json"))
    with pytest.raises(ConfigError):
        create_app(Settings(api_keys={"short": ["a"]}))


def test_every_key_is_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    import kgmem.api.auth as auth

    keys = {f"key-{i}-" + "x" * 20: [f"ns{i}"] for i in range(5)}
    ring = KeyRing(keys)
    calls: list[int] = []
    real = auth.hmac.compare_digest

    def counting(a: bytes, b: bytes) -> bool:
        calls.append(1)
        return real(a, b)

    monkeypatch.setattr(auth.hmac, "compare_digest", counting)
    first = ring.authenticate(next(iter(keys)))
    assert first is not None and first.namespaces == {"ns0"}
    assert len(calls) == len(keys)  # no early exit on a match
    calls.clear()
    assert ring.authenticate("unknown-" + "y" * 20) is None
    assert len(calls) == len(keys)


def test_without_keys_every_request_is_refused_loudly(
    server_settings: Settings, arun: Any, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(api_settings(server_settings, api_keys={}, api_preload_models=False))

    async def call() -> Any:
        async with running(app) as client:
            return await client.post(
                "/graphql", json={"query": "{ stats { nodes } }"}, headers={"X-API-Key": KEY_A}
            )

    with caplog.at_level("ERROR", logger="kgmem.api"):
        response = arun(call())
    assert response.status_code == 401
    assert "no API keys configured" in response.json()["error"]["message"]
    assert any("NO API KEYS ARE CONFIGURED" in r.getMessage() for r in caplog.records)


def test_auth_can_be_disabled_explicitly_for_local_use(
    server_settings: Settings, arun: Any, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(
        api_settings(server_settings, api_keys={}, api_auth_disabled=True, api_preload_models=False)
    )

    async def call() -> Any:
        async with running(app) as client:
            return await client.post("/graphql", json={"query": "{ stats { namespace } }"})

    with caplog.at_level("WARNING", logger="kgmem.api"):
        response = arun(call())
    assert response.status_code == 200
    assert response.json()["data"]["stats"]["namespace"] == server_settings.namespace
    assert any("AUTH IS DISABLED" in r.getMessage() for r in caplog.records)
