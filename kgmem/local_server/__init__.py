"""The local Neo4j + GDS server for development and single-machine use: ``launcher`` builds the
Maven project of ``tools/neo4j`` (or the copy an installed wheel carries), starts it detached,
and stops or inspects it from another process (``kgmem db start|stop|status``). It is a tool
beside the gateway, not part of it: it never opens a driver session.
"""
