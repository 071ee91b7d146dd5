"""``kgmem mcp``: the MCP server on stdin/stdout, for a local MCP host.

Contract. Serves :mod:`kgmem.mcp` over stdio as the configured namespace (``KGMEM_NAMESPACE``, or
``--namespace``) until the host closes the pipe. The SDK is imported only here, when the command
runs, and an install without the ``mcp`` extra is one red ``error:`` line. stdout carries only
the protocol: every message for people goes to stderr. The server starts even when Neo4j is
down; its tool calls then answer ``unavailable`` until Neo4j is back.
"""

from __future__ import annotations

import typer

from kgmem.cli.runtime import NAMESPACE_OPT, fail, load_settings
from kgmem.core.validation import check_namespace
from kgmem.errors import KgmemError
from kgmem.extras import require


def mcp_cmd(namespace: str = NAMESPACE_OPT) -> None:
    """Serve kgmem to an MCP host over stdio (Claude Desktop, IDEs); see docs/mcp.md."""
    settings = load_settings()
    try:
        require("mcp", "`kgmem mcp`")
        if namespace is not None:
            settings = settings.model_copy(update={"namespace": check_namespace(namespace)})
    except KgmemError as exc:
        fail(exc)
    from kgmem.mcp.server import run_stdio

    try:
        run_stdio(settings)
    except KeyboardInterrupt:
        raise typer.Exit(130) from None
