"""The Neo4j Browser style shipped with kgmem captions memories by their text and entities by
their name, and is package data (so an installed kgmem has it)."""

from __future__ import annotations

import re
from importlib.resources import files


def _captions() -> dict[str, str]:
    text = (files("kgmem.graph") / "browser.grass").read_text(encoding="utf-8")
    blocks = re.findall(r"^node\.(\w+)\s*\{(.*?)^\}", text, re.DOTALL | re.MULTILINE)
    captions = {}
    for label, body in blocks:
        found = re.search(r'caption:\s*"([^"]*)"', body)
        assert found, label
        captions[label] = found.group(1)
    return captions


def test_memories_by_text_and_entities_by_name() -> None:
    captions = _captions()
    assert captions["Memory"] == "{content}"
    assert captions["Entity"] == "{name}"
    assert set(captions) >= {"Memory", "Entity", "Topic", "Episode"}
