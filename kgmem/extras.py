"""Which optional parts of kgmem this install has, and the one-line error naming a missing one.

The core install is the thin client (the SDK and the CLI's own plumbing); the ``server`` extra
brings the Neo4j driver, numpy, the models, GDS and the API, ``mcp`` the MCP SDK (``kgmem mcp``,
``/mcp``), ``llm`` the OpenAI client, ``torch`` the torch embedder, ``frameworks`` LangGraph and
LangChain (``kgmem.adapters``), ``otel`` the OpenTelemetry SDK.
:func:`require` checks an extra's modules with ``importlib.util.find_spec`` (nothing is imported,
so the check costs microseconds) and raises a ``ConfigError`` that says what to install.
"""

from __future__ import annotations

import importlib.util
import sys

from kgmem.errors import ConfigError

# the modules that stand for each extra: if any is missing, so is the extra
EXTRAS: dict[str, tuple[str, ...]] = {
    "server": (
        "neo4j",
        "numpy",
        "spacy",
        "onnxruntime",
        "onnx",
        "safetensors",
        "tokenizers",
        "graphdatascience",
        "strawberry",
        "starlette",
        "uvicorn",
        "prometheus_client",
    ),
    "llm": ("openai", "tenacity"),
    "mcp": ("mcp",),
    "torch": ("torch", "sentence_transformers"),
    "frameworks": ("langgraph", "langchain_core"),
    "otel": ("opentelemetry.sdk", "opentelemetry.exporter.otlp.proto.http"),
}


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` that this environment cannot import."""
    return [m for m in EXTRAS[extra] if _absent(m)]


def _absent(module: str) -> bool:
    if module in sys.modules:  # a None entry is an import blocked on purpose
        return sys.modules[module] is None
    try:
        return importlib.util.find_spec(module) is None
    except (ImportError, ValueError):
        return True


def require(extra: str, what: str) -> None:
    """Raise a ``ConfigError`` naming the extra when ``what`` cannot run in this install."""
    absent = missing(extra)
    if absent:
        raise ConfigError(
            f"{what} needs the {extra} extra: pip install 'kgmem[{extra}]' "
            f"(missing: {', '.join(absent)})"
        )
