"""kgmem's HTTP service: a GraphQL API (Strawberry on Starlette) with API keys and limits.

``create_app(settings)`` builds the ASGI app; run it with ``uvicorn`` (``kgmem serve``). The
package is thin by design: resolvers call :class:`kgmem.service.Kgmem` and shape its records;
no Cypher lives here. See ``app`` (routes, lifespan), ``schema`` (Query, Mutation, extensions),
``auth`` (keys → namespaces), ``limits`` (body, depth, complexity, page size) and ``metrics``.
"""

from kgmem.api.app import create_app

__all__ = ["create_app"]
