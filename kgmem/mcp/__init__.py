"""kgmem as an MCP server, on the official ``mcp`` Python SDK (the ``mcp`` extra).

Agents reach kgmem through the Model Context Protocol: ``kgmem mcp`` serves it over stdio for a
local host (Claude Desktop, an IDE) as the configured namespace, and ``kgmem serve`` mounts it at
``/mcp`` over streamable HTTP behind the API's keys and limits. The package is a thin surface
like :mod:`kgmem.api`: ``params`` (typed tool arguments), ``shapes`` (typed results: receipts,
hits, the X-ray summary), ``calls`` (namespace, limits, errors as tool errors), ``tools`` (one
service call each), ``server`` (the server, the overview resource, stdio) and ``http`` (the
mount). Nothing is imported here, so importing the package needs no SDK.
"""
