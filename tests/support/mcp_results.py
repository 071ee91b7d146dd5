"""What an MCP tool call answered, read the way every MCP test reads it.

``ok(result)`` asserts the call was no tool error (showing its text when it was) and returns its
structured content; ``error_text(result)`` joins its text blocks (a tool error's message).
"""

from __future__ import annotations

from typing import Any

from mcp_types import CallToolResult, TextContent


def ok(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, error_text(result)
    data: dict[str, Any] = result.structured_content
    return data


def error_text(result: CallToolResult) -> str:
    return " ".join(c.text for c in result.content if isinstance(c, TextContent))
