-- The context builder's rows in ONE statement (graph.agent.world_context, one round trip).
-- Linking (Python) decides only afterwards which found entities the message names, so this reads, for
-- every entity it finds, what the builder may then need, cut per entity exactly as agent_facts_about.sql
-- and context_events.sql cut for the chosen ids; the builder keeps the chosen ones' rows in this order and
-- applies those statements' overall limits, which gives the rows the two-step build read (tests/test_context_block.py).
--   part 'entity'   tests/sql/context_entities.sql's rows: message spans equal to a ref ($1), a canonical name or
--                   a believed alias valid at $3 ($2), the owner's person (wm_owner_person, 0085),
--                   active policies; a merged
--                   entity stands for its survivor. n: the order context_entities returns them in.
--   part 'own'      current facts (active, valid at $3) of every entity found: the first $5 of each
--                   by (predicate, valid_from, id); n orders them by (about_id, predicate, valid_from, id).
--   part 'incoming' relationships pointing at each ref/name/alias hit, the same way; about_id is the object.
--   part 'event'    the latest $8 events of each ref/name/alias hit since $7 (for_id: the hit),
--                   the latest $9 of chat $6 (not user messages) and $10 unfulfilled
--                   intents (for_id NULL); n orders them by (occurred_at DESC, id).
-- Parameters ($n placeholders: the text goes to the server as is; psycopg would parse this 9 kB text on every call,
-- 0.26 ms, as it caches its parse only for statements under 4 kB): $1 refs, $2 spans (lower case), $3 at,
-- $4 max_policies, $5 limit, $6 chat_id, $7 since, $8 per_entity, $9 per_chat, $10 per_open.
-- Columns: part, n, for_id, context_entities' (span, via, namespace, seen_at, id, ref, kind, name),
-- agent_facts_about's (id shared), context_events' (id shared); a part's other columns are NULL.
-- Shape: as tests/sql/context_entities.sql (no coalesce or wm_survivor in a join condition under RLS); per-entity
-- LATERAL lookups by facts_current, facts_incoming_current and world_events_target, so the work grows with the
-- entities the message names, never with the owner's 1M facts.
WITH hits AS (
    SELECT ref AS span, id AS entity_id, 'ref' AS via, NULL::text AS namespace, NULL::timestamptz AS seen_at
    FROM entities
    WHERE owner_sub = wm_owner() AND ref = ANY($1)
    UNION ALL
    SELECT name_norm, id, 'name', NULL, NULL
    FROM entities
    WHERE owner_sub = wm_owner() AND name_norm = ANY($2)
    UNION ALL
    SELECT alias_norm, entity_id, 'alias', namespace, recorded_at
    FROM entity_aliases
    WHERE owner_sub = wm_owner() AND alias_norm = ANY($2) AND wm_believed(superseded_at)
      AND wm_during(valid_from, valid_to, $3)
    UNION ALL
    SELECT NULL, id, 'owner', NULL, NULL  -- the owner's person entity (wm_owner_person, graph/sql/functions/)
    FROM entities
    WHERE owner_sub = wm_owner() AND id = wm_owner_person($3)
    UNION ALL
    (SELECT NULL, id, 'policy', NULL, NULL
     FROM entities
     WHERE owner_sub = wm_owner() AND kind = 'policy' AND status = 'active'
     ORDER BY created_at, id
     LIMIT $4)
), resolved AS MATERIALIZED (
    SELECT h.*, CASE WHEN e.merged_into_id IS NULL THEN e.id ELSE wm_survivor(e.id, NULL) END AS survivor_id
    FROM hits h
    JOIN entities e ON e.id = h.entity_id
), found AS MATERIALIZED (
    SELECT h.span, h.via, h.namespace, h.seen_at, s.id, s.ref, s.kind, s.canonical_name AS name,
           row_number() OVER () AS n
    FROM resolved h
    JOIN entities s ON s.id = h.survivor_id
), own AS (
    SELECT f.*, row_number() OVER (ORDER BY f.about_id, f.predicate, f.valid_from, f.id) AS n
    FROM (SELECT DISTINCT id FROM found) AS c
    CROSS JOIN LATERAL (
        SELECT f.id, f.subject_id AS about_id, s.ref AS subject_ref, f.predicate, f.functional, f.object_kind,
               f.object_value, o.ref AS object_ref, f.valid_from, f.valid_to, f.recorded_at, f.superseded_at,
               f.observed_at, f.status, f.source, f.confidence, sc.ref AS scope_ref, f.priority, f.memory_type,
               f.reason, f.evidence, f.supersedes_fact_id, f.run_id
        FROM facts f
        JOIN entities s ON s.id = f.subject_id
        LEFT JOIN entities o ON o.id = f.object_entity_id
        LEFT JOIN entities sc ON sc.id = f.scope_entity_id
        WHERE f.owner_sub = wm_owner() AND f.subject_id = c.id
          AND wm_believed(f.superseded_at) AND f.status = 'active' AND f.valid @> $3::timestamptz
        ORDER BY f.predicate, f.valid_from, f.id
        LIMIT $5
    ) AS f
), incoming AS (
    SELECT f.*, row_number() OVER (ORDER BY f.about_id, f.predicate, f.valid_from, f.id) AS n
    FROM (SELECT DISTINCT id FROM found WHERE via IN ('ref', 'name', 'alias')) AS c
    CROSS JOIN LATERAL (
        SELECT f.id, f.object_entity_id AS about_id, s.ref AS subject_ref, f.predicate, f.functional,
               f.object_kind, f.object_value, o.ref AS object_ref, f.valid_from, f.valid_to, f.recorded_at,
               f.superseded_at, f.observed_at, f.status, f.source, f.confidence, sc.ref AS scope_ref, f.priority,
               f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
        FROM facts f
        JOIN entities s ON s.id = f.subject_id
        JOIN entities o ON o.id = f.object_entity_id
        LEFT JOIN entities sc ON sc.id = f.scope_entity_id
        WHERE f.owner_sub = wm_owner() AND f.object_entity_id = c.id
          AND wm_believed(f.superseded_at) AND f.status = 'active' AND f.valid @> $3::timestamptz
        ORDER BY f.predicate, f.valid_from, f.id
        LIMIT $5
    ) AS f
), picked AS (
    SELECT c.id AS for_id, w.id
    FROM (SELECT DISTINCT id FROM found WHERE via IN ('ref', 'name', 'alias')) AS c
    CROSS JOIN LATERAL (
        SELECT id FROM world_events
        WHERE owner_sub = wm_owner() AND target_entity_id = c.id AND occurred_at >= $7
        ORDER BY occurred_at DESC
        LIMIT $8
    ) AS w
    UNION ALL
    (SELECT NULL::uuid, id FROM world_events
     WHERE owner_sub = wm_owner() AND chat_id = $6 AND occurred_at >= $7
       AND event_type <> 'user_message'
     ORDER BY occurred_at DESC
     LIMIT $9)
    UNION ALL
    (SELECT NULL::uuid, id FROM world_events
     WHERE owner_sub = wm_owner() AND expected_effect IS NOT NULL
       AND intent_outcome IS DISTINCT FROM 'fulfilled' AND intent_outcome IS NOT NULL
       AND occurred_at >= $7
     ORDER BY occurred_at DESC
     LIMIT $10)
), events AS (
    SELECT p.for_id, w.id, w.occurred_at, w.event_type, w.summary, w.chat_id, w.intent, w.intent_outcome,
           t.ref AS target, c.event_type AS cause_type, c.summary AS cause_summary,
           row_number() OVER (ORDER BY w.occurred_at DESC, w.id) AS n
    FROM picked p
    JOIN world_events w ON w.id = p.id
    LEFT JOIN entities t ON t.id = w.target_entity_id
    LEFT JOIN world_events c ON c.id = w.caused_by_event_id
)
SELECT 'entity' AS part, n, NULL::uuid AS for_id,
       span, via, namespace, seen_at, id, ref, kind, name,
       NULL::uuid AS about_id, NULL::text AS subject_ref, NULL::text AS predicate, NULL::boolean AS functional,
       NULL::text AS object_kind, NULL::jsonb AS object_value, NULL::text AS object_ref,
       NULL::timestamptz AS valid_from, NULL::timestamptz AS valid_to, NULL::timestamptz AS recorded_at,
       NULL::timestamptz AS superseded_at, NULL::timestamptz AS observed_at, NULL::text AS status,
       NULL::text AS source, NULL::real AS confidence, NULL::text AS scope_ref, NULL::smallint AS priority,
       NULL::text AS memory_type, NULL::text AS reason, NULL::jsonb AS evidence, NULL::uuid AS supersedes_fact_id,
       NULL::text AS run_id,
       NULL::timestamptz AS occurred_at, NULL::text AS event_type, NULL::text AS summary, NULL::text AS chat_id,
       NULL::text AS intent, NULL::text AS intent_outcome, NULL::text AS target, NULL::text AS cause_type,
       NULL::text AS cause_summary
FROM found
UNION ALL
SELECT part, n, NULL, NULL, NULL, NULL, NULL, id, NULL, NULL, NULL,
       about_id, subject_ref, predicate, functional, object_kind, object_value, object_ref, valid_from, valid_to,
       recorded_at, superseded_at, observed_at, status, source, confidence, scope_ref, priority, memory_type,
       reason, evidence, supersedes_fact_id, run_id,
       NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
FROM (SELECT 'own' AS part, * FROM own UNION ALL SELECT 'incoming', * FROM incoming) AS facts_part
UNION ALL
SELECT 'event', n, for_id, NULL, NULL, NULL, NULL, id, NULL, NULL, NULL,
       NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
       NULL, NULL, NULL, NULL,
       occurred_at, event_type, summary, chat_id, intent, intent_outcome, target, cause_type, cause_summary
FROM events
ORDER BY part, n
