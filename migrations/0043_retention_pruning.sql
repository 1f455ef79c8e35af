-- Pruning windowed data (issue 13): observed events in monthly partitions that are dropped whole, and
-- windowed fact rows deleted only together with the rollup that replaces them.
--
-- Why a separate table for observed events instead of partitioning world_events: a partitioned table's
-- primary key must contain the partition key, so world_events(id) could no longer be the target of
-- facts.caused_by_event_id, world_events.caused_by_event_id, entity_merges.event_id and
-- merge_dismissals.event_id, and the AGE mirror's Event vertices and CAUSED edges would have to be pruned
-- with it. world_events stays the causal log (permanent: what caused what, governance); observations
-- (event types whose registry class is 'windowed') go to observed_events, which nothing references.
SET LOCAL ROLE worldmem_owner;

CREATE TABLE observed_events (
    id               uuid NOT NULL DEFAULT uuidv7(),
    owner_sub        text NOT NULL DEFAULT wm_owner(),
    event_type       text NOT NULL REFERENCES event_types (key),
    occurred_at      timestamptz NOT NULL,
    recorded_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    target_entity_id uuid REFERENCES entities (id),
    source           text NOT NULL,
    external_ref     text,
    payload          jsonb NOT NULL DEFAULT '{}'::jsonb,
    summary          text CHECK (length(summary) <= 2000),
    PRIMARY KEY (id, occurred_at)
) PARTITION BY RANGE (occurred_at);
CREATE INDEX observed_events_target ON observed_events (owner_sub, target_entity_id, occurred_at DESC);

ALTER TABLE observed_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE observed_events FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_only ON observed_events USING (owner_sub = wm_owner()) WITH CHECK (owner_sub = wm_owner());
ALTER TABLE observed_events ALTER COLUMN owner_sub SET STATISTICS 0;  -- see 0036; partitions too (below)
-- Append-only for the app: partitions are created and dropped only by the functions below.
GRANT SELECT, INSERT ON observed_events TO worldmem_app;
GRANT SELECT ON observed_events TO worldmem_console;

-- The partition name of the month holding `at` (UTC).
CREATE FUNCTION wm_observed_partition_name(at timestamptz) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN 'observed_events_' || to_char(at AT TIME ZONE 'UTC', 'YYYYMM');

-- The month's partition, created on first use. SECURITY DEFINER: the app creates no tables itself.
CREATE FUNCTION wm_observed_partition(at timestamptz) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
DECLARE
    part text := wm_observed_partition_name(at);
    start timestamp := date_trunc('month', at AT TIME ZONE 'UTC');
BEGIN
    IF to_regclass(part) IS NULL THEN
        PERFORM pg_advisory_xact_lock(hashtext(part));
        IF to_regclass(part) IS NULL THEN
            EXECUTE format('CREATE TABLE %I PARTITION OF observed_events FOR VALUES FROM (%L) TO (%L)', part,
                           start AT TIME ZONE 'UTC', (start + interval '1 month') AT TIME ZONE 'UTC');
            EXECUTE format('ALTER TABLE %I ALTER COLUMN owner_sub SET STATISTICS 0', part);
        END IF;
    END IF;
    RETURN part;
END
$fn$;

-- Which months have a partition (for the retention job).
CREATE FUNCTION wm_observed_months() RETURNS SETOF date
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
    SELECT to_date(substr(c.relname, length('observed_events_') + 1), 'YYYYMM')
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'observed_events'::regclass
    ORDER BY 1
$fn$;

-- The owners with rows in a month's partition and how many: the job rolls each of them up before the
-- partition may go. Names owners and counts only, never content.
CREATE FUNCTION wm_observed_owners(month date) RETURNS TABLE (owner_sub text, n bigint)
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
DECLARE
    part text := wm_observed_partition_name(month::timestamp AT TIME ZONE 'UTC');
BEGIN
    IF to_regclass(part) IS NULL THEN
        RETURN;
    END IF;
    RETURN QUERY EXECUTE format('SELECT owner_sub, count(*) FROM %I GROUP BY owner_sub ORDER BY owner_sub', part);
END
$fn$;

-- Drop a month's partition, but only when every owner with rows in it has a rollup marker for that month
-- ('events-month:YYYY-MM') that counted exactly the rows the partition holds for them now: a row that
-- arrived after the rollup keeps the partition alive until the next run rolls it up too. Returns the
-- number of rows dropped; refuses (check_violation) otherwise. The partition is read directly (no
-- policy on it); the markers are read per owner under the owner policy.
CREATE FUNCTION wm_observed_drop_month(p_month date) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
DECLARE
    part text := wm_observed_partition_name(p_month::timestamp AT TIME ZONE 'UTC');
    caller text := current_setting('app.current_owner', true);
    o record;
    rolled bigint;
    total bigint := 0;
BEGIN
    IF extract(day FROM p_month) <> 1 THEN
        RAISE EXCEPTION 'retention: % is not the first day of a month', p_month USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF p_month + interval '1 month' > now() THEN
        RAISE EXCEPTION 'retention: month % has not ended', p_month USING ERRCODE = 'check_violation';
    END IF;
    IF to_regclass(part) IS NULL THEN
        RETURN 0;
    END IF;
    EXECUTE format('LOCK TABLE %I IN SHARE MODE', part);  -- no insert between the check and the drop
    FOR o IN EXECUTE format('SELECT owner_sub, count(*) AS n FROM %I GROUP BY owner_sub', part) LOOP
        PERFORM set_config('app.current_owner', o.owner_sub, true);
        SELECT r.rows_rolled INTO rolled FROM retention_rollups r
        WHERE r.owner_sub = o.owner_sub AND r.series_key = 'events-month:' || to_char(p_month, 'YYYY-MM');
        IF rolled IS DISTINCT FROM o.n THEN
            PERFORM set_config('app.current_owner', coalesce(caller, ''), true);
            RAISE EXCEPTION 'retention: % rows of owner % in % are not rolled up (marker: %)', o.n, o.owner_sub,
                part, coalesce(rolled::text, 'none') USING ERRCODE = 'check_violation';
        END IF;
        total := total + o.n;
    END LOOP;
    PERFORM set_config('app.current_owner', coalesce(caller, ''), true);
    EXECUTE format('DROP TABLE %I', part);
    RETURN total;
END
$fn$;

-- Whether a fact row may be pruned once the window's edge is `edge`: windowed, never the user's words, a
-- curated preference, an agent action with a reason, a correction (invalidated) or a pending row;
-- literal values only (a relationship row is also an AGE edge: those stay); and its whole life lies
-- before the edge on one axis: it stopped holding (valid_to) or stopped being believed (superseded_at)
-- at or before the edge. So a read about a valid time and a system time both at or after the edge
-- finds every row it found before pruning. The Python twin is graph/retention/classes.py `prunable`.
CREATE FUNCTION wm_retention_prunable(retention_class text, source text, memory_type text, reason text,
                                      status text, object_kind text, valid_to timestamptz,
                                      superseded_at timestamptz, edge timestamptz) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN retention_class = 'windowed' AND source <> 'user' AND memory_type IS NULL AND reason IS NULL
       AND status IN ('active', 'superseded') AND object_kind = 'literal'
       AND ((valid_to IS NOT NULL AND valid_to <= edge) OR (superseded_at IS NOT NULL AND superseded_at <= edge));

-- The windowed fact rows nothing permanent holds on to: no non-windowed row links to them (a correction of
-- an observation), no suppression marker, no merge's list of moved rows. A view (security_invoker, so the
-- owner policy applies) rather than a function, so the planner turns the checks into anti-joins: as a
-- function called per row it took 60 us a row (bench.retention_bench).
CREATE VIEW retention_unheld_facts WITH (security_invoker = true) AS
SELECT f.*
FROM facts f
WHERE f.retention_class = 'windowed'
  AND NOT EXISTS (SELECT 1 FROM facts k WHERE k.supersedes_fact_id = f.id AND k.retention_class <> 'windowed')
  AND NOT EXISTS (SELECT 1 FROM facts k WHERE k.superseded_by_fact_id = f.id AND k.retention_class <> 'windowed')
  AND NOT EXISTS (SELECT 1 FROM facts k WHERE k.invalidated_by_fact_id = f.id AND k.retention_class <> 'windowed')
  AND NOT EXISTS (SELECT 1 FROM suppression_markers s WHERE s.fact_id = f.id)
  AND NOT EXISTS (SELECT 1 FROM entity_merge_moves m WHERE m.item = 'fact' AND m.old_id = f.id)
  AND NOT EXISTS (SELECT 1 FROM entity_merge_moves m WHERE m.item = 'fact' AND m.new_id = f.id);
GRANT SELECT ON retention_unheld_facts TO worldmem_app;

-- Delete the given rows of one rolled-up series and month: only rows that are still prunable and not
-- held (retention_unheld_facts), and only if the series' rollup (and its
-- projection, embedded or pending) was written in this very transaction, so the source is never gone
-- before its summary exists. SECURITY DEFINER: the app has no DELETE on facts.
CREATE FUNCTION wm_retention_prune_facts(series_key text, ids uuid[], edge timestamptz) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
DECLARE
    r retention_rollups%ROWTYPE;
    month_start timestamptz;
    n bigint;
BEGIN
    IF wm_owner() IS NULL THEN
        RAISE EXCEPTION 'retention: no owner' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF edge > now() THEN
        RAISE EXCEPTION 'retention: the edge % lies in the future', edge USING ERRCODE = 'check_violation';
    END IF;
    SELECT * INTO r FROM retention_rollups x
    WHERE x.owner_sub = wm_owner() AND x.series_key = wm_retention_prune_facts.series_key AND x.kind = 'facts';
    IF NOT FOUND OR r.written_at <> now() OR NOT EXISTS (
            SELECT 1 FROM memory_projections p
            WHERE p.id = r.projection_id AND p.source_kind = 'rollup' AND (p.embedding_pending OR p.embedding IS NOT NULL)) THEN
        RAISE EXCEPTION 'retention: no rollup of % written in this transaction', series_key
            USING ERRCODE = 'check_violation';
    END IF;
    month_start := r.month::timestamp AT TIME ZONE 'UTC';
    DELETE FROM facts d
    WHERE d.id IN (
        SELECT f.id FROM retention_unheld_facts f
        WHERE f.owner_sub = wm_owner() AND f.id = ANY (ids)
          AND f.subject_id = r.subject_id AND f.predicate = r.predicate
          AND f.valid_from >= month_start AND f.valid_from < month_start + interval '1 month'
          AND wm_retention_prunable(f.retention_class, f.source, f.memory_type, f.reason, f.status, f.object_kind,
                                    f.valid_to, f.superseded_at, edge));
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
END
$fn$;

REVOKE ALL ON FUNCTION wm_observed_partition(timestamptz), wm_observed_months(), wm_observed_owners(date),
    wm_observed_drop_month(date), wm_retention_prune_facts(text, uuid[], timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_observed_partition(timestamptz), wm_observed_months(), wm_observed_owners(date),
    wm_observed_drop_month(date), wm_retention_prune_facts(text, uuid[], timestamptz) TO worldmem_app;

-- The time-range rule of 0021 for the new time columns (the same idempotent block as 0038).
DO $constrain$
DECLARE
    col record;
BEGIN
    FOR col IN
        SELECT c.table_name, c.column_name
        FROM information_schema.columns c
        JOIN pg_tables t ON t.schemaname = c.table_schema AND t.tablename = c.table_name
        WHERE c.table_schema = 'public' AND c.data_type = 'timestamp with time zone'
          AND t.tableowner = 'worldmem_owner'
          AND NOT EXISTS (SELECT 1 FROM pg_constraint k
                          WHERE k.conname = c.table_name || '_' || c.column_name || '_in_range')
        ORDER BY c.table_name, c.column_name
    LOOP
        EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (%I >= %L AND %I < %L)',
                       col.table_name, col.table_name || '_' || col.column_name || '_in_range',
                       col.column_name, '0001-01-02 00:00:00+00', col.column_name, '9999-12-31 00:00:00+00');
    END LOOP;
END
$constrain$;
