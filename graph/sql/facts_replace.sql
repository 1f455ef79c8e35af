-- facts_replace: what one operation's plan does to the facts of one key, in ONE statement (one round trip): close the
-- believed rows %(close)s (system time ends at %(at)s, status superseded), each naming its successor in the same
-- UPDATE, and insert the rows %(rows)s (one JSON array of objects as batch_facts_insert's, each with its index
-- "n" and without an id). %(successor)s[i] is the index n of the row that replaces %(close)s[i] (NULL: none).
-- Columns: ids (the inserted rows' ids in the order of n), closed (rows closed).
-- Why one statement: closing and then naming the successor were two UPDATEs of the same row, i.e. a second heap
-- version with a new entry in each of the table's indexes and all four foreign keys checked again (PostgreSQL
-- re-checks every key of a row version its own transaction wrote); and three to four statements per operation.
-- The closes are found as facts_close.sql finds them (`id = ANY`): at 6,000 facts by the primary key (EXPLAIN
-- ANALYZE, as a join with unnest() was too); at a few hundred, both scan the owner's current rows (facts_current).
-- Order: `inserted` reads `closed` (a one-time filter), so every close is done before the first row goes in;
-- the exclusion constraint's check does not see a row version its own transaction closed, as when the close
-- was a statement of its own. The new ids come from uuidv7() in row order (a materialized CTE: once each), and
-- the foreign key of a successor is checked at the end of the statement, when its row exists.
WITH new AS MATERIALIZED (
    SELECT uuidv7() AS id, r.*
    FROM jsonb_to_recordset(%(rows)s::jsonb) AS r(
        n integer, subject_id uuid, predicate text, functional boolean, object_kind text, object_value_text text,
        object_entity_id uuid, valid_from timestamptz, valid_to timestamptz, recorded_at timestamptz,
        observed_at timestamptz, believed boolean, source text, source_trust_tier smallint, changed_by text,
        caused_by_event_id uuid, confidence real, memory_type text, status text, scope_entity_id uuid,
        scope_kind text, priority smallint, supersedes_fact_id uuid, run_id text, op_index integer, evidence jsonb,
        reason text
    )
    ORDER BY n
), closed AS (
    UPDATE facts f SET superseded_at = %(at)s, status = 'superseded', invalidated_by_fact_id = NULL,
           superseded_by_fact_id = (SELECT new.id FROM new
                                    WHERE new.n = (%(successor)s::integer[])[array_position(%(close)s::uuid[], f.id)])
    WHERE f.id = ANY(%(close)s::uuid[]) AND wm_believed(f.superseded_at)
    RETURNING f.id
), inserted AS (
    INSERT INTO facts (
        id, subject_id, predicate, functional, object_kind, object_value, object_entity_id,
        valid_from, valid_to, recorded_at, observed_at, believed, source, source_trust_tier, changed_by,
        caused_by_event_id, confidence, memory_type, status, scope_entity_id, scope_kind, priority,
        supersedes_fact_id, run_id, op_index, evidence, reason
    )
    SELECT id, subject_id, predicate, functional, object_kind, object_value_text::jsonb, object_entity_id,
           valid_from, valid_to, recorded_at, observed_at, believed, source, source_trust_tier, changed_by,
           caused_by_event_id, confidence, memory_type, status, scope_entity_id, scope_kind, priority,
           supersedes_fact_id, run_id, op_index, evidence, reason
    FROM new WHERE (SELECT count(*) FROM closed) >= 0
    ORDER BY n
    RETURNING id
)
SELECT coalesce(array_agg(id ORDER BY n), '{}') AS ids, (SELECT count(*) FROM closed) AS closed FROM new
