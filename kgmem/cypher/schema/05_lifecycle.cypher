// Lifecycle: one consolidation lease per namespace (so MERGE on it is race-free), tier audit,
// topic and merged-entity lookups.
CREATE CONSTRAINT lease_id IF NOT EXISTS FOR (n:Lease) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT tier_change_id IF NOT EXISTS FOR (n:TierChange) REQUIRE n.id IS UNIQUE;
CREATE INDEX tier_change_namespace_memory IF NOT EXISTS FOR (n:TierChange) ON (n.namespace, n.memory_id);
CREATE INDEX topic_namespace IF NOT EXISTS FOR (n:Topic) ON (n.namespace);
CREATE INDEX merged_entity_namespace IF NOT EXISTS FOR (n:MergedEntity) ON (n.namespace);
