// Fulltext (Lucene BM25) indexes. Memory content uses the 'english' analyzer: conversational
// text asks "hiking" of a memory that says "hike", so stemming and stop-word removal help recall.
// Episode text (the turns as said) uses 'english' too: the episode channel finds memories through
// the words of the turns they came from, which a third-person rewrite may have changed.
// Entity names keep every token ('standard-no-stop-words'): names are short and "The Who" matters.
CREATE FULLTEXT INDEX memory_content IF NOT EXISTS FOR (n:Memory) ON EACH [n.content]
OPTIONS { indexConfig: { `fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: false } };
CREATE FULLTEXT INDEX entity_names IF NOT EXISTS FOR (n:Entity) ON EACH [n.name, n.aliases_text]
OPTIONS { indexConfig: { `fulltext.analyzer`: 'standard-no-stop-words', `fulltext.eventually_consistent`: false } };
CREATE FULLTEXT INDEX episode_text IF NOT EXISTS FOR (n:Episode) ON EACH [n.text]
OPTIONS { indexConfig: { `fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: false } };
