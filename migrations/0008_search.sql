-- Indexes for the agent's read tools and the context builder (graph/search.py, graph/context.py).
-- Runs as the migrating superuser (ALTER FUNCTION ... LEAKPROOF needs it).
--
-- Row-level security and indexes: PostgreSQL only uses a condition as an index condition ahead of the
-- owner policy when every function in it is LEAKPROOF (see shared notes). `=` on text and uuid already
-- is; lower(), to_tsvector() and pg_trgm's operators are not. So the normalised forms we match on are
-- stored generated columns, and the functions behind `%`, `<%`, `%>` and `@@` are marked LEAKPROOF.

-- Exact linking of message spans against canonical names: `name_norm = ANY($spans)`. Similar names use
-- the trigram index on canonical_name from 0003 (word similarity, so "agent" finds "Home Agent").
ALTER TABLE entities ADD COLUMN name_norm text GENERATED ALWAYS AS (lower(canonical_name)) STORED;
CREATE INDEX entities_owner_name_norm ON entities (owner_sub, name_norm);

-- Exact linking against believed aliases in any namespace (the unique index leads with the namespace).
CREATE INDEX entity_aliases_owner_norm ON entity_aliases (owner_sub, alias_norm) WHERE superseded_at IS NULL;

-- Search over literal fact values: the value as text (strings unquoted), for trigram matching, and its
-- words (language-neutral 'simple' configuration: owners write in several languages), for full text.
-- Their indexes are 0040's and 0069's.
ALTER TABLE facts ADD COLUMN value_text text
    GENERATED ALWAYS AS (CASE WHEN object_kind = 'literal' THEN object_value #>> '{}' END) STORED;
ALTER TABLE facts ADD COLUMN value_tsv tsvector
    GENERATED ALWAYS AS (CASE WHEN object_kind = 'literal'
                              THEN to_tsvector('simple'::regconfig, object_value #>> '{}') END) STORED;

-- Salient recent events of the context builder: those about linked entities and those of this chat.
CREATE INDEX world_events_target_time ON world_events (owner_sub, target_entity_id, occurred_at DESC)
    WHERE target_entity_id IS NOT NULL;
CREATE INDEX world_events_chat_time ON world_events (owner_sub, chat_id, occurred_at DESC)
    WHERE chat_id IS NOT NULL;

-- Trigram similarity (`%`, `<%`) and full-text match (`@@`) as index conditions under RLS. These are
-- pure computations over their two arguments: they raise no error that depends on a row's content (only
-- out-of-memory), write nothing and call nothing else, so evaluating them before the owner policy
-- reveals nothing about other owners' rows. tests/test_agent_tools.py checks that search stays
-- owner-scoped; the shared hostile suite probes the console.
ALTER FUNCTION similarity_op(text, text) LEAKPROOF;
ALTER FUNCTION word_similarity_op(text, text) LEAKPROOF;
ALTER FUNCTION word_similarity_commutator_op(text, text) LEAKPROOF;
ALTER FUNCTION ts_match_vq(tsvector, tsquery) LEAKPROOF;
