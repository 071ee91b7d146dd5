// Uniqueness constraints on ids (each also gives a range index on the id).
CREATE CONSTRAINT memory_id IF NOT EXISTS FOR (n:Memory) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT episode_id IF NOT EXISTS FOR (n:Episode) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (n:Entity) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT box_id IF NOT EXISTS FOR (n:Box) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT trace_id IF NOT EXISTS FOR (n:Trace) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT topic_id IF NOT EXISTS FOR (n:Topic) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT status_change_id IF NOT EXISTS FOR (n:StatusChange) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT namespace_state IF NOT EXISTS FOR (n:NamespaceState) REQUIRE n.namespace IS UNIQUE;
