SET LOCAL ROLE worldmem_owner;

-- Delete the given rows of one rolled-up series and month: only rows that are still prunable and not
-- held (retention_unheld_facts), and only if the series' rollup (and its
-- projection, embedded or pending) was written in this very transaction, so the source is never gone
-- before its summary exists. SECURITY DEFINER: the app has no DELETE on facts.
CREATE OR REPLACE FUNCTION wm_retention_prune_facts(series_key text, ids uuid[], edge timestamptz) RETURNS bigint
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
REVOKE ALL ON FUNCTION wm_retention_prune_facts(text, uuid[], timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_retention_prune_facts(text, uuid[], timestamptz) TO worldmem_app;
