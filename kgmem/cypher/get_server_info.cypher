// Neo4j and GDS versions of the connected server.
// params: -
CALL dbms.components() YIELD name, versions, edition
RETURN name, versions[0] AS neo4j_version, edition, gds.version() AS gds_version
