"""The ONNX export cache file: atomic, self-checking (a damaged file reads as absent)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from kgmem.ml.onnx_model import FORMAT, _read, _write
from kgmem.settings import Settings


def test_a_written_model_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "m.onnx"
    _write(path, b"\x08\x01model-bytes")
    assert _read(path) == b"\x08\x01model-bytes"
    assert [p.name for p in path.parent.iterdir()] == ["m.onnx"]  # no temp file left behind


def test_missing_or_foreign_files_read_as_absent(tmp_path: Path) -> None:
    assert _read(tmp_path / "nope.onnx") is None
    (tmp_path / "plain.onnx").write_bytes(b"\x08\x07an onnx file without our header")
    assert _read(tmp_path / "plain.onnx") is None
    (tmp_path / "short.onnx").write_bytes(FORMAT + b"00")
    assert _read(tmp_path / "short.onnx") is None


@given(st.binary(min_size=1, max_size=200), st.data())
def test_any_changed_or_truncated_byte_is_caught(model: bytes, data: st.DataObject) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.onnx"
        _write(path, model)
        raw = path.read_bytes()
        at = data.draw(st.integers(0, len(raw) - 1))
        flipped = raw[:at] + bytes([raw[at] ^ 0x01]) + raw[at + 1 :]
        path.write_bytes(flipped)
        assert _read(path) is None
        path.write_bytes(raw[:at])
        assert _read(path) is None


def test_int8_is_a_torch_only_setting() -> None:
    with pytest.raises(ValidationError, match="embed_backend=torch"):
        Settings(embed_int8=True)
    assert Settings(embed_backend="torch", embed_int8=True).embed_int8
