"""The optional LLM: one JSON-schema-constrained chat call against any OpenAI-compatible server.

``LLMClient(settings)`` does no I/O when built; the ``openai.AsyncOpenAI`` client is created on
first use with its own retries off, so every retry is ours (``tenacity``'s loop with our rule,
stop and wait), bounded by ``llm_max_retries`` and counted. :meth:`LLMClient.complete_json`
sends a system and a user message with a strict ``json_schema`` response format and returns
the parsed object as an :class:`LLMResult`. Only timeouts, connection errors, 408, 429 and 5xx
are retried (with a short exponential backoff, or the server's ``Retry-After`` when longer);
any other HTTP error fails at once. Everything that goes wrong surfaces as an
:class:`~kgmem.errors.LLMError` subclass — :class:`LLMUnavailable` (unreachable, rejected, out of
retries), :class:`LLMRefused` (the model declined) or :class:`LLMMalformed` (not a JSON object) —
so callers can fall back to the local engine. Per-call counters live in :attr:`LLMClient.stats`.
Failures are logged on ``kgmem.llm``; the API key never appears in a log line or error message.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kgmem.errors import LLMError
from kgmem.settings import Settings

if TYPE_CHECKING:  # imported on first use: the thin client install has neither
    import openai
    from tenacity import RetryCallState

log = logging.getLogger("kgmem.llm")

OPENAI_BASE_URL = "https://api.openai.com/v1"
# Local servers (Ollama, vLLM, llama.cpp) want no key, but the openai client insists on one and
# would otherwise read OPENAI_API_KEY from the environment, which only Settings may do.
_NO_KEY = "kgmem-no-key"
_RETRYABLE_STATUS = frozenset({408, 429})
_MAX_RETRY_AFTER_S = 5.0  # honour a server's Retry-After, but never stall ingest for long


class LLMUnavailable(LLMError):
    """The server could not be reached, rejected the request, or stayed failing after retries."""

    code = "llm_unavailable"

    def __init__(self, message: str, *, attempts: int = 0, status: int | None = None) -> None:
        super().__init__(message)
        self.attempts = attempts
        self.status = status


class LLMRefused(LLMError):
    """The model declined to answer (``message.refusal`` set, or a content filter stopped it)."""

    code = "llm_refused"


class LLMMalformed(LLMError):
    """The answer was not a JSON object of the requested shape (or was cut off)."""

    code = "llm_malformed"


@dataclass(frozen=True)
class LLMResult:
    """One successful call: the parsed JSON object and what it cost."""

    data: dict[str, Any]
    tokens_in: int
    tokens_out: int
    latency_ms: float
    model: str = ""
    retries: int = 0


@dataclass(frozen=True)
class LLMCall:
    """The record of one ``complete_json`` call, successful or not."""

    model: str
    success: bool
    retries: int
    latency_ms: float
    tokens_in: int = 0
    tokens_out: int = 0
    error: str | None = None  # the LLMError code when it failed


@dataclass
class LLMStats:
    """Running counters over every ``complete_json`` call made through one client."""

    calls: int = 0
    failures: int = 0
    attempts: int = 0  # HTTP requests sent; attempts - calls = retries
    retries: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    total_latency_ms: float = 0.0
    last: LLMCall | None = field(default=None)

    def record(self, call: LLMCall) -> None:
        self.calls += 1
        self.failures += 0 if call.success else 1
        self.attempts += call.retries + 1
        self.retries += call.retries
        self.tokens_in += call.tokens_in
        self.tokens_out += call.tokens_out
        self.total_latency_ms += call.latency_ms
        self.last = call


class _Retryable(Exception):
    """Internal: one attempt failed in a way worth trying again."""

    def __init__(self, reason: str, *, status: int | None = None, wait_s: float = 0.0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status
        self.wait_s = wait_s


class LLMClient:
    """Lazy wrapper around ``openai.AsyncOpenAI`` for structured-output calls."""

    def __init__(self, settings: Settings, *, backoff_s: float = 0.25) -> None:
        self._base_url = settings.llm_base_url
        self._api_key = settings.llm_api_key
        self.model = settings.llm_model
        self._timeout_s = settings.llm_timeout_s
        self._max_retries = settings.llm_max_retries
        self._backoff_s = backoff_s
        self._client: openai.AsyncOpenAI | None = None
        self.stats = LLMStats()

    @property
    def configured(self) -> bool:
        """True when a server is named (base URL) or a key is given (the OpenAI default URL)."""
        return bool(self._base_url) or self._api_key is not None

    def _openai(self) -> openai.AsyncOpenAI:
        if self._client is None:
            try:
                import openai
            except ImportError as exc:
                raise LLMUnavailable("the LLM needs openai: pip install 'kgmem[llm]'") from exc
            key = self._api_key.get_secret_value() if self._api_key is not None else _NO_KEY
            self._client = openai.AsyncOpenAI(
                api_key=key,
                base_url=self._base_url or OPENAI_BASE_URL,
                timeout=self._timeout_s,
                max_retries=0,  # ours: counted, bounded, and only on retryable errors
            )
        return self._client

    async def aclose(self) -> None:
        """Close the HTTP connection pool (if one was ever opened)."""
        if self._client is not None:
            await self._client.close()
            self._client = None

    def _redact(self, text: str) -> str:
        # A server may echo the key back in an error body; it must not reach logs or users.
        if self._api_key is not None and (secret := self._api_key.get_secret_value()):
            text = text.replace(secret, "***")
        return text

    async def complete_json(
        self, system: str, user: str, schema: dict[str, Any], schema_name: str
    ) -> LLMResult:
        """One chat completion constrained to ``schema``; the parsed JSON object or an LLMError."""
        if not self.configured:
            raise LLMUnavailable(
                "no LLM is configured: set KGMEM_LLM_BASE_URL and/or KGMEM_LLM_API_KEY"
            )
        from tenacity import AsyncRetrying, retry_if_exception_type, stop_after_attempt

        started = time.perf_counter()
        retries = 0
        result: tuple[dict[str, Any], int, int] | None = None
        try:
            try:
                async for attempt in AsyncRetrying(
                    retry=retry_if_exception_type(_Retryable),
                    stop=stop_after_attempt(self._max_retries + 1),
                    wait=self._wait,
                    before_sleep=self._log_retry,
                    reraise=True,
                ):
                    with attempt:
                        retries = attempt.retry_state.attempt_number - 1
                        result = await self._attempt(system, user, schema, schema_name)
            except _Retryable as exc:
                raise LLMUnavailable(
                    f"LLM call failed after {retries + 1} attempts: {exc.reason}",
                    attempts=retries + 1,
                    status=exc.status,
                ) from exc
        except LLMError as exc:
            latency = (time.perf_counter() - started) * 1000
            self.stats.record(LLMCall(self.model, False, retries, latency, error=exc.code))
            log.error("LLM call failed (%s): %s", exc.code, self._redact(exc.message))
            raise
        latency = (time.perf_counter() - started) * 1000
        assert result is not None  # the loop ends with a result or an exception
        data, tokens_in, tokens_out = result
        self.stats.record(LLMCall(self.model, True, retries, latency, tokens_in, tokens_out))
        return LLMResult(data, tokens_in, tokens_out, latency, self.model, retries)

    def _wait(self, state: RetryCallState) -> float:
        """Seconds before the next attempt: exponential backoff with jitter, or the server's
        ``Retry-After`` when it asks for longer."""
        failed = state.outcome.exception() if state.outcome is not None else None
        asked = float(failed.wait_s) if isinstance(failed, _Retryable) else 0.0
        done = state.attempt_number - 1
        return max(asked, self._backoff_s * 2.0**done * random.uniform(0.5, 1))

    def _log_retry(self, state: RetryCallState) -> None:
        failed = state.outcome.exception() if state.outcome is not None else None
        log.warning(
            "LLM attempt failed (%s); retry %d/%d in %.2fs",
            failed.reason if isinstance(failed, _Retryable) else failed,
            state.attempt_number,
            self._max_retries,
            state.upcoming_sleep,
        )

    async def _attempt(
        self, system: str, user: str, schema: dict[str, Any], schema_name: str
    ) -> tuple[dict[str, Any], int, int]:
        """One HTTP request; raises _Retryable or a final LLMError."""
        client = self._openai()
        import openai  # importable: _openai() built the client

        try:
            # openai's timeout is per connect/read phase; this bounds the whole call, so a server
            # that trickles bytes cannot hold ingest for longer than llm_timeout_s per attempt.
            async with asyncio.timeout(self._timeout_s):
                response = await client.chat.completions.create(
                    model=self.model,
                    messages=[
                        {"role": "system", "content": system},
                        {"role": "user", "content": user},
                    ],
                    response_format={
                        "type": "json_schema",
                        "json_schema": {"name": schema_name, "schema": schema, "strict": True},
                    },
                )
        except (TimeoutError, openai.APITimeoutError) as exc:
            raise _Retryable(f"timed out after {self._timeout_s}s") from exc
        except openai.APIConnectionError as exc:
            raise _Retryable(f"connection error: {self._redact(str(exc))}") from exc
        except openai.APIStatusError as exc:
            status = exc.status_code
            if status in _RETRYABLE_STATUS or status >= 500:
                raise _Retryable(f"HTTP {status}", status=status, wait_s=_retry_after(exc)) from exc
            hint = " (check KGMEM_LLM_API_KEY)" if status in (401, 403) else ""
            raise LLMUnavailable(
                f"LLM server rejected the request: HTTP {status}{hint}: "
                + self._redact(exc.message),
                attempts=1,
                status=status,
            ) from exc
        except openai.APIResponseValidationError as exc:
            raise LLMMalformed(f"LLM server sent an unreadable response: {exc.message}") from exc
        except openai.OpenAIError as exc:
            raise LLMUnavailable(f"LLM client error: {self._redact(str(exc))}", attempts=1) from exc
        return _parse_response(response)


def _retry_after(exc: openai.APIStatusError) -> float:
    """Seconds the server asked us to wait (Retry-After), capped; 0 when it did not say."""
    try:
        value = float(exc.response.headers.get("retry-after", "0"))
    except (TypeError, ValueError):
        return 0.0
    return min(max(value, 0.0), _MAX_RETRY_AFTER_S)


def _parse_response(response: Any) -> tuple[dict[str, Any], int, int]:
    """The JSON object and token counts of a chat completion, or LLMRefused / LLMMalformed."""
    if not response.choices:
        raise LLMMalformed("LLM response has no choices")
    choice = response.choices[0]
    message = choice.message
    if getattr(message, "refusal", None):
        raise LLMRefused(f"the model refused: {str(message.refusal)[:200]}")
    if choice.finish_reason == "content_filter":
        raise LLMRefused("the model's answer was stopped by a content filter")
    if choice.finish_reason == "length":
        raise LLMMalformed("the model's answer was cut off (finish_reason=length)")
    content = message.content
    if not content:
        raise LLMMalformed("LLM response has no content")
    try:
        data = json.loads(content)
    except json.JSONDecodeError as exc:
        raise LLMMalformed(f"LLM response is not JSON: {exc.msg} at {exc.pos}") from exc
    if not isinstance(data, dict):
        raise LLMMalformed(f"LLM response is JSON but not an object ({type(data).__name__})")
    usage = response.usage
    tokens_in = int(getattr(usage, "prompt_tokens", 0) or 0)
    tokens_out = int(getattr(usage, "completion_tokens", 0) or 0)
    return data, tokens_in, tokens_out
