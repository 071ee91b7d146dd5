"""Every setting is documented: the configuration page's settings table names each ``KGMEM_``
variable."""

from __future__ import annotations

from pathlib import Path

from kgmem.settings import Settings

CONFIGURATION = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"


def test_every_setting_is_in_the_configuration_table() -> None:
    text = CONFIGURATION.read_text(encoding="utf-8")
    missing = [
        f"KGMEM_{name.upper()}"
        for name in Settings.model_fields
        if f"| `KGMEM_{name.upper()}` |" not in text
    ]
    assert not missing, f"settings missing from docs/configuration.md's table: {missing}"
