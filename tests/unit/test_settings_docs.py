"""Every setting is documented: the README's settings table names each ``KGMEM_`` variable."""

from __future__ import annotations

from pathlib import Path

from kgmem.settings import Settings

README = Path(__file__).resolve().parents[2] / "README.md"


def test_every_setting_is_in_the_readme() -> None:
    text = README.read_text(encoding="utf-8")
    missing = [
        f"KGMEM_{name.upper()}"
        for name in Settings.model_fields
        if f"`KGMEM_{name.upper()}`" not in text
    ]
    assert not missing, f"settings missing from README.md's table: {missing}"
