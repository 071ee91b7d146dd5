// Range indexes for the filters every query applies: namespace, status, time, hashes, names.
CREATE INDEX memory_namespace_status IF NOT EXISTS FOR (n:Memory) ON (n.namespace, n.status);
CREATE INDEX memory_namespace_hash IF NOT EXISTS FOR (n:Memory) ON (n.namespace, n.content_hash);
CREATE INDEX memory_created_at IF NOT EXISTS FOR (n:Memory) ON (n.created_at);
CREATE INDEX memory_valid_from IF NOT EXISTS FOR (n:Memory) ON (n.valid_from);
// Recall's period channel: a namespace's memories said, or dated, on the day a question names.
CREATE INDEX memory_namespace_created_at IF NOT EXISTS FOR (n:Memory) ON (n.namespace, n.created_at);
CREATE INDEX memory_namespace_valid_from IF NOT EXISTS FOR (n:Memory) ON (n.namespace, n.valid_from);
CREATE INDEX episode_namespace_session IF NOT EXISTS FOR (n:Episode) ON (n.namespace, n.session_id);
CREATE INDEX episode_at IF NOT EXISTS FOR (n:Episode) ON (n.at);
CREATE INDEX entity_namespace_name IF NOT EXISTS FOR (n:Entity) ON (n.namespace, n.normalized_name);
CREATE INDEX episode_namespace_extracted IF NOT EXISTS FOR (n:Episode) ON (n.namespace, n.extracted);
CREATE INDEX entity_namespace_first_token IF NOT EXISTS FOR (n:Entity) ON (n.namespace, n.first_token);
CREATE INDEX box_namespace_status IF NOT EXISTS FOR (n:Box) ON (n.namespace, n.status);
CREATE INDEX trace_namespace IF NOT EXISTS FOR (n:Trace) ON (n.namespace, n.last_at);
CREATE INDEX status_change_namespace_memory IF NOT EXISTS FOR (n:StatusChange) ON (n.namespace, n.memory_id);
// Claims: the current value of a subject's slot and its history are one indexed read.
CREATE INDEX memory_claim IF NOT EXISTS FOR (n:Memory) ON (n.namespace, n.claim_subject, n.claim_family);
CREATE INDEX memory_claim_family IF NOT EXISTS FOR (n:Memory) ON (n.namespace, n.claim_family);
// Extraction workers and the metrics read the pending queue and the recent commits of every namespace.
CREATE INDEX episode_extracted IF NOT EXISTS FOR (n:Episode) ON (n.extracted);
CREATE INDEX episode_committed_at IF NOT EXISTS FOR (n:Episode) ON (n.committed_at);
CREATE INDEX lease_name IF NOT EXISTS FOR (n:Lease) ON (n.name);
// Framework store items (episodes carrying an item key): get by key, and which namespaces hold any.
CREATE INDEX episode_namespace_item_key IF NOT EXISTS FOR (n:Episode) ON (n.namespace, n.item_key);
CREATE INDEX episode_item_key IF NOT EXISTS FOR (n:Episode) ON (n.item_key);
