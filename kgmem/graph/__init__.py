"""The graph gateway: the only package that imports ``neo4j`` or ``graphdatascience``.

``client.GraphClient`` runs catalog queries; ``repository`` has one function per query;
``schema`` applies the DDL. The local Neo4j + GDS server's launcher is :mod:`kgmem.local_server`.
"""
