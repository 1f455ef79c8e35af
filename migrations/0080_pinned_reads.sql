-- Point reads that pin their owner themselves (issue 11): ONE statement, one message, no pipeline.
-- Before, a point read was a pipeline of two statements (tx_set_owner_read_only.sql, then the read) and a Sync:
-- psycopg flushes each to the socket on its own, so the server woke three times per read, and the client spent
-- ~90 us more CPU on the pipeline than on a plain statement (bench/README.md, "Reads that pin their owner").
-- Now the read is a call of one of the functions below, whose first statement pins the owner for the read's
-- implicit transaction (wm_pin_reader: app.current_owner and transaction_read_only, transaction-locally, as
-- tx_set_owner_read_only.sql does) and whose second statement is the read, unchanged: the bodies are those of
-- graph/sql/reads_state_at.sql, reads_state_known_at.sql, reads_fact_history.sql and agent_get_entity.sql
-- before this migration (those files now call these functions; the columns are the same).
-- Why this is as safe as before: the functions run with the caller's rights (row-level security as for any
-- statement of the app role) and pin the owner through pg_catalog.set_config, which only worldmem_app and
-- worldmem_owner may execute (0006): the console role (worldmem_console) can call neither set_config nor,
-- below, these functions. Nothing outlives the statement: the settings are transaction-local and the
-- statement is its own transaction (autocommit). A caller that forgot the owner would read nothing (0003's
-- policies fail closed). LANGUAGE sql (PostgreSQL 18 keeps their plans per session), VOLATILE (set_config).
SET LOCAL ROLE worldmem_owner;

CREATE FUNCTION wm_pin_reader(reader text) RETURNS void
    LANGUAGE sql AS $fn$
    SELECT pg_catalog.set_config('app.current_owner', reader, true),
           pg_catalog.set_config('transaction_read_only', 'on', true);
$fn$;

-- stateAt: graph/sql/reads_state_at.sql's statement.
CREATE FUNCTION wm_read_state_at(reader text, wanted text, valid_time timestamptz)
    RETURNS TABLE (outcome text, via text, entity_id uuid, entity_ref text, entity_kind text, entity_name text, edge timestamptz, rolled_up boolean, rollups jsonb,
                   id uuid, predicate text, functional boolean, object_kind text, object_value jsonb, object_ref text,
                   valid_from timestamptz, valid_to timestamptz, recorded_at timestamptz, superseded_at timestamptz,
                   observed_at timestamptz, status text, source text, confidence real, scope_ref text, priority smallint,
                   memory_type text, reason text, evidence jsonb, supersedes_fact_id uuid, run_id text)
    LANGUAGE sql AS $fn$
    SELECT public.wm_pin_reader(reader);
    SELECT r.outcome, r.via, r.id AS entity_id, r.ref AS entity_ref, r.kind AS entity_kind,
           r.canonical_name AS entity_name, n.edge, n.rolled_up, n.rollups,
           f.id, f.predicate, f.functional, f.object_kind, f.object_value, f.object_ref, f.valid_from, f.valid_to,
           f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source, f.confidence, f.scope_ref, f.priority,
           f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
    FROM wm_resolve(wanted, NULL, true) r
    LEFT JOIN LATERAL wm_notice_as_of(r.id, valid_time::timestamptz) n ON true
    LEFT JOIN LATERAL (
        SELECT f.id, f.predicate, f.functional, f.object_kind, f.object_value, o.ref AS object_ref, f.valid_from,
               f.valid_to, f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source, f.confidence,
               s.ref AS scope_ref, f.priority, f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
        FROM facts f
        LEFT JOIN entities o ON o.id = f.object_entity_id
        LEFT JOIN entities s ON s.id = f.scope_entity_id
        WHERE f.owner_sub = wm_owner() AND f.subject_id = r.id
          AND f.superseded_at IS NULL AND f.status = 'active'
          AND f.valid @> valid_time::timestamptz
    ) f ON true
    ORDER BY f.predicate, f.valid_from, f.id;
$fn$;

-- stateAsKnownAt: graph/sql/reads_state_known_at.sql's statement.
CREATE FUNCTION wm_read_state_known_at(reader text, wanted text, system_time timestamptz, valid_time timestamptz)
    RETURNS TABLE (outcome text, via text, entity_id uuid, entity_ref text, entity_kind text, entity_name text, edge timestamptz, rolled_up boolean, rollups jsonb,
                   id uuid, predicate text, functional boolean, object_kind text, object_value jsonb, object_ref text,
                   valid_from timestamptz, valid_to timestamptz, recorded_at timestamptz, superseded_at timestamptz,
                   observed_at timestamptz, status text, source text, confidence real, scope_ref text, priority smallint,
                   memory_type text, reason text, evidence jsonb, supersedes_fact_id uuid, run_id text)
    LANGUAGE sql AS $fn$
    SELECT public.wm_pin_reader(reader);
    SELECT r.outcome, r.via, r.id AS entity_id, r.ref AS entity_ref, r.kind AS entity_kind,
           r.canonical_name AS entity_name, n.edge, n.rolled_up, n.rollups,
           f.id, f.predicate, f.functional, f.object_kind, f.object_value, f.object_ref, f.valid_from, f.valid_to,
           f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source, f.confidence, f.scope_ref, f.priority,
           f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
    FROM wm_resolve(wanted, system_time::timestamptz, true) r
    LEFT JOIN LATERAL wm_notice_as_of(r.id, valid_time::timestamptz) n ON true
    LEFT JOIN LATERAL (
        SELECT f.id, f.predicate, f.functional, f.object_kind, f.object_value, o.ref AS object_ref, f.valid_from,
               f.valid_to, f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source, f.confidence,
               s.ref AS scope_ref, f.priority, f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
        FROM facts f
        LEFT JOIN entities o ON o.id = f.object_entity_id
        LEFT JOIN entities s ON s.id = f.scope_entity_id
        WHERE f.owner_sub = wm_owner() AND f.subject_id = r.id
          AND f.believed AND wm_known(f.recorded_at, f.superseded_at, system_time::timestamptz)
          AND f.valid @> valid_time::timestamptz
    ) f ON true
    ORDER BY f.predicate, f.valid_from, f.id;
$fn$;

-- factHistory: graph/sql/reads_fact_history.sql's statement (`series` is the predicate).
CREATE FUNCTION wm_read_fact_history(reader text, wanted text, series text)
    RETURNS TABLE (outcome text, via text, entity_id uuid, entity_ref text, entity_kind text, entity_name text, edge timestamptz, rollups jsonb,
                   id uuid, predicate text, functional boolean, object_kind text, object_value jsonb, object_ref text,
                   valid_from timestamptz, valid_to timestamptz, recorded_at timestamptz, superseded_at timestamptz,
                   observed_at timestamptz, status text, source text, confidence real, scope_ref text, priority smallint,
                   memory_type text, reason text, evidence jsonb, supersedes_fact_id uuid, run_id text)
    LANGUAGE sql AS $fn$
    SELECT public.wm_pin_reader(reader);
    SELECT r.outcome, r.via, r.id AS entity_id, r.ref AS entity_ref, r.kind AS entity_kind,
           r.canonical_name AS entity_name, n.edge, n.rollups,
           f.id, f.predicate, f.functional, f.object_kind, f.object_value, f.object_ref, f.valid_from, f.valid_to,
           f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source, f.confidence, f.scope_ref, f.priority,
           f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
    FROM wm_resolve(wanted, NULL, false) r
    LEFT JOIN LATERAL wm_notice_series(r.id, series) n ON true
    LEFT JOIN LATERAL (
        SELECT f.id, f.predicate, f.functional, f.object_kind, f.object_value, o.ref AS object_ref, f.valid_from,
               f.valid_to, f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source, f.confidence,
               s.ref AS scope_ref, f.priority, f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
        FROM facts f
        LEFT JOIN entities o ON o.id = f.object_entity_id
        LEFT JOIN entities s ON s.id = f.scope_entity_id
        WHERE f.owner_sub = wm_owner() AND f.subject_id = r.id AND f.predicate = series
    ) f ON true
    ORDER BY f.recorded_at, f.valid_from, f.id;
$fn$;

-- getEntity: graph/sql/agent_get_entity.sql's statement (`most` facts of each part).
CREATE FUNCTION wm_read_entity(reader text, wanted text, at timestamptz, most integer)
    RETURNS TABLE (outcome text, via text, entity_id uuid, entity_ref text, entity_kind text, entity_name text, aliases text[], part integer,
                   id uuid, about_id uuid, subject_ref text, predicate text, functional boolean, object_kind text,
                   object_value jsonb, object_ref text, valid_from timestamptz, valid_to timestamptz,
                   recorded_at timestamptz, superseded_at timestamptz, observed_at timestamptz, status text,
                   source text, confidence real, scope_ref text, priority smallint, memory_type text, reason text,
                   evidence jsonb, supersedes_fact_id uuid, run_id text)
    LANGUAGE sql AS $fn$
    SELECT public.wm_pin_reader(reader);
    SELECT r.outcome, r.via, r.id AS entity_id, r.ref AS entity_ref, r.kind AS entity_kind,
           r.canonical_name AS entity_name, a.aliases, f.*
    FROM wm_resolve(wanted, NULL, true) r
    LEFT JOIN LATERAL (
        SELECT array_agg(al.alias ORDER BY al.namespace, al.alias) AS aliases
        FROM entity_aliases al
        WHERE al.owner_sub = wm_owner() AND al.entity_id = r.id AND al.superseded_at IS NULL
          AND al.valid_from <= at AND (al.valid_to IS NULL OR al.valid_to > at)
    ) a ON true
    LEFT JOIN LATERAL (
        (SELECT 0 AS part, f.id, f.subject_id AS about_id, s.ref AS subject_ref, f.predicate, f.functional,
                f.object_kind, f.object_value, o.ref AS object_ref, f.valid_from, f.valid_to, f.recorded_at,
                f.superseded_at, f.observed_at, f.status, f.source, f.confidence, sc.ref AS scope_ref, f.priority,
                f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
         FROM facts f
         JOIN entities s ON s.id = f.subject_id
         LEFT JOIN entities o ON o.id = f.object_entity_id
         LEFT JOIN entities sc ON sc.id = f.scope_entity_id
         WHERE f.owner_sub = wm_owner() AND f.subject_id = r.id
           AND f.superseded_at IS NULL AND f.status = 'active' AND f.valid @> at::timestamptz
         ORDER BY f.predicate, f.valid_from, f.id
         LIMIT most)
        UNION ALL
        (SELECT 1, f.id, f.object_entity_id, s.ref, f.predicate, f.functional, f.object_kind,
                f.object_value, o.ref, f.valid_from, f.valid_to, f.recorded_at, f.superseded_at,
                f.observed_at, f.status, f.source, f.confidence, sc.ref, f.priority, f.memory_type,
                f.reason, f.evidence, f.supersedes_fact_id, f.run_id
         FROM facts f
         JOIN entities s ON s.id = f.subject_id
         JOIN entities o ON o.id = f.object_entity_id
         LEFT JOIN entities sc ON sc.id = f.scope_entity_id
         WHERE f.owner_sub = wm_owner() AND f.object_entity_id = r.id
           AND f.superseded_at IS NULL AND f.status = 'active' AND f.valid @> at::timestamptz
         ORDER BY f.predicate, f.valid_from, f.id
         LIMIT most)
    ) f ON true
    ORDER BY f.part, f.predicate, f.valid_from, f.id;
$fn$;

REVOKE EXECUTE ON FUNCTION wm_pin_reader(text), wm_read_state_at(text, text, timestamptz),
    wm_read_state_known_at(text, text, timestamptz, timestamptz), wm_read_fact_history(text, text, text),
    wm_read_entity(text, text, timestamptz, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_pin_reader(text), wm_read_state_at(text, text, timestamptz),
    wm_read_state_known_at(text, text, timestamptz, timestamptz), wm_read_fact_history(text, text, text),
    wm_read_entity(text, text, timestamptz, integer) TO worldmem_app;
