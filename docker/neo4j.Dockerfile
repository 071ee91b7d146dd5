# Neo4j with the Graph Data Science plugin baked in at build time (no download when a container
# starts), at the versions the local launcher runs (tools/neo4j/pom.xml: neo4j.version and
# gds.version; a test keeps the three in step).
ARG NEO4J_VERSION=5.26.24
FROM neo4j:${NEO4J_VERSION}-community
ARG GDS_VERSION=2.13.9
ADD --chown=neo4j:neo4j \
  https://graphdatascience.ninja/neo4j-graph-data-science-${GDS_VERSION}.jar \
  /var/lib/neo4j/plugins/neo4j-graph-data-science-${GDS_VERSION}.jar
ENV NEO4J_dbms_security_procedures_unrestricted=gds.* \
    NEO4J_dbms_security_procedures_allowlist=gds.*
