"""A BERT encoder's ONNX graph written directly from its safetensors weights: no torch.

``build_bert(model_dir)`` returns the serialised ONNX model (opset 17) of a Hugging Face
``BertModel`` with absolute position embeddings and GELU (erf) activations, taking
``input_ids``, ``attention_mask`` and ``token_type_ids`` (int64, ``[batch, seq]``, both axes
dynamic) and giving ``last_hidden_state`` (float32, ``[batch, seq, hidden]``) — the same
computation as ``transformers``' eager BERT: embeddings sum → LayerNorm, then per layer
self-attention with an additive mask of the dtype's minimum on padded keys, residual →
LayerNorm, GELU feed-forward, residual → LayerNorm. Pooling and normalisation stay outside the
graph (``kgmem.ml.onnx_model``). A configuration outside that (another position type or
activation, a decoder) raises ``ModelUnavailable``: the torch backend remains for those.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from kgmem.errors import ModelUnavailable

OPSET = 17  # LayerNormalization is a standard op from 17 on
INPUTS = ("input_ids", "attention_mask", "token_type_ids")


class _Graph:
    """Nodes and initialisers under construction, with fresh names for intermediates."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        from onnx import helper, numpy_helper

        self._helper = helper
        self._numpy_helper = numpy_helper
        self._weights = weights
        self.nodes: list[Any] = []
        self.inits: list[Any] = []
        self._count = 0

    def weight(self, name: str, transpose: bool = False) -> str:
        """An initialiser from the checkpoint (``Linear`` weights are stored ``[out, in]``)."""
        try:
            array = self._weights[name]
        except KeyError as exc:
            raise ModelUnavailable(f"the checkpoint has no tensor {name!r}") from exc
        array = np.ascontiguousarray(array.T if transpose else array, dtype=np.float32)
        self.inits.append(self._numpy_helper.from_array(array, name))
        return name

    def const(self, value: Any, dtype: Any = np.int64) -> str:
        name = self._fresh("const")
        self.inits.append(self._numpy_helper.from_array(np.array(value, dtype=dtype), name))
        return name

    def op(self, kind: str, *inputs: str, **attrs: Any) -> str:
        out = self._fresh(kind.lower())
        self.nodes.append(self._helper.make_node(kind, list(inputs), [out], **attrs))
        return out

    def _fresh(self, stem: str) -> str:
        self._count += 1
        return f"{stem}_{self._count}"

    def linear(self, x: str, prefix: str) -> str:
        """``x @ W.T + b`` for the checkpoint's ``prefix.weight`` / ``prefix.bias``."""
        product = self.op("MatMul", x, self.weight(f"{prefix}.weight", transpose=True))
        return self.op("Add", product, self.weight(f"{prefix}.bias"))

    def layer_norm(self, x: str, prefix: str, eps: float) -> str:
        scale, bias = self.weight(f"{prefix}.weight"), self.weight(f"{prefix}.bias")
        return self.op("LayerNormalization", x, scale, bias, axis=-1, epsilon=eps)


def build_bert(model_dir: Path) -> bytes:
    """The ONNX model bytes of the BERT encoder in ``model_dir`` (config.json + safetensors)."""
    try:
        import onnx
        from onnx import TensorProto, helper
    except ImportError as exc:
        raise ModelUnavailable("building the ONNX embedder needs the onnx package") from exc
    config = _config(model_dir)
    g = _Graph(_weights(model_dir))
    hidden = int(config["hidden_size"])
    heads = int(config["num_attention_heads"])
    eps = float(config.get("layer_norm_eps", 1e-12))

    x = _embeddings(g, hidden, eps)
    mask = _attention_bias(g)
    for i in range(int(config["num_hidden_layers"])):
        x = _layer(g, x, mask, f"encoder.layer.{i}", hidden, heads, eps)
    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))

    dims = ["batch", "seq"]
    graph = helper.make_graph(
        g.nodes,
        "bert",
        [helper.make_tensor_value_info(n, TensorProto.INT64, dims) for n in INPUTS],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, [*dims, hidden])],
        g.inits,
    )
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="kgmem"
    )
    model.ir_version = 8  # readable by every ONNX Runtime that supports opset 17
    onnx.checker.check_model(model)
    return bytes(model.SerializeToString())


def _config(model_dir: Path) -> dict[str, Any]:
    try:
        config: dict[str, Any] = json.loads((model_dir / "config.json").read_text())
    except (OSError, ValueError) as exc:
        raise ModelUnavailable(f"{model_dir} has no readable config.json: {exc}") from exc
    supported = (
        config.get("model_type") == "bert"
        and config.get("hidden_act") == "gelu"
        and config.get("position_embedding_type", "absolute") == "absolute"
        and not config.get("is_decoder", False)
        and int(config["hidden_size"]) % int(config["num_attention_heads"]) == 0
    )
    if not supported:
        raise ModelUnavailable(
            f"{model_dir} is not a plain BERT encoder (absolute positions, GELU): "
            "set KGMEM_EMBED_BACKEND=torch"
        )
    return config


def _weights(model_dir: Path) -> dict[str, np.ndarray]:
    """The checkpoint's tensors, names without a leading ``bert.`` (some exports add one)."""
    file = model_dir / "model.safetensors"
    if not file.exists():
        raise ModelUnavailable(
            f"{model_dir} has no model.safetensors (a pytorch_model.bin needs the torch backend)"
        )
    from safetensors.numpy import load_file

    return {k.removeprefix("bert."): v for k, v in load_file(str(file)).items()}


def _embeddings(g: _Graph, hidden: int, eps: float) -> str:
    words = g.op("Gather", g.weight("embeddings.word_embeddings.weight"), "input_ids")
    types = g.op("Gather", g.weight("embeddings.token_type_embeddings.weight"), "token_type_ids")
    # positions 0..seq-1, the same for every row of the batch
    seq = g.op("Gather", g.op("Shape", "input_ids"), g.const(1), axis=0)
    ids = g.op("Range", g.const(0), seq, g.const(1))
    positions = g.op("Gather", g.weight("embeddings.position_embeddings.weight"), ids)
    total = g.op("Add", g.op("Add", words, types), positions)
    return g.layer_norm(total, "embeddings.LayerNorm", eps)


def _attention_bias(g: _Graph) -> str:
    """``[batch, 1, 1, seq]``: 0 on real tokens, float32's minimum on padding (as transformers)."""
    mask = g.op("Cast", "attention_mask", to=1)  # 1 = FLOAT
    inverted = g.op("Sub", g.const(1.0, np.float32), mask)
    bias = g.op("Mul", inverted, g.const(np.finfo(np.float32).min, np.float32))
    return g.op("Unsqueeze", bias, g.const([1, 2]))


def _layer(g: _Graph, x: str, mask: str, prefix: str, hidden: int, heads: int, eps: float) -> str:
    size = hidden // heads
    split = g.const([0, 0, heads, size])  # 0 keeps batch and seq as they come

    def by_head(t: str, perm: list[int]) -> str:
        return g.op("Transpose", g.op("Reshape", t, split), perm=perm)

    q = by_head(g.linear(x, f"{prefix}.attention.self.query"), [0, 2, 1, 3])
    k = by_head(g.linear(x, f"{prefix}.attention.self.key"), [0, 2, 3, 1])  # pre-transposed
    v = by_head(g.linear(x, f"{prefix}.attention.self.value"), [0, 2, 1, 3])
    scores = g.op("Div", g.op("MatMul", q, k), g.const(math.sqrt(size), np.float32))
    probs = g.op("Softmax", g.op("Add", scores, mask), axis=-1)
    context = g.op("Transpose", g.op("MatMul", probs, v), perm=[0, 2, 1, 3])
    context = g.op("Reshape", context, g.const([0, 0, hidden]))
    attended = g.linear(context, f"{prefix}.attention.output.dense")
    x = g.layer_norm(g.op("Add", attended, x), f"{prefix}.attention.output.LayerNorm", eps)

    inner = g.linear(x, f"{prefix}.intermediate.dense")
    # exact GELU: x * 0.5 * (1 + erf(x / sqrt 2)), what BERT's "gelu" is
    erf = g.op("Erf", g.op("Div", inner, g.const(math.sqrt(2.0), np.float32)))
    gelu = g.op(
        "Mul",
        g.op("Mul", inner, g.const(0.5, np.float32)),
        g.op("Add", erf, g.const(1.0, np.float32)),
    )
    out = g.linear(gelu, f"{prefix}.output.dense")
    return g.layer_norm(g.op("Add", out, x), f"{prefix}.output.LayerNorm", eps)
