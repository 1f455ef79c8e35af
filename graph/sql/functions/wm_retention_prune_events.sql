SET LOCAL ROLE worldmem_owner;

-- Delete the given events of one rolled-up series (type, target, month) and their mirror: only events
-- still unheld, behind the edge, and only if the series' rollup and its projection were written in this
-- very transaction (as wm_retention_prune_facts). SECURITY DEFINER: the app has no DELETE on either.
CREATE OR REPLACE FUNCTION wm_retention_prune_events(series_key text, ids uuid[], edge timestamptz) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, ag_catalog, pg_temp AS $fn$
DECLARE
    r retention_rollups%ROWTYPE;
    doomed uuid[];
    keys ag_catalog.agtype[];
    vertices ag_catalog.graphid[];
BEGIN
    IF wm_owner() IS NULL THEN
        RAISE EXCEPTION 'retention: no owner' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF edge > now() THEN
        RAISE EXCEPTION 'retention: the edge % lies in the future', edge USING ERRCODE = 'check_violation';
    END IF;
    SELECT * INTO r FROM retention_rollups x
    WHERE x.owner_sub = wm_owner() AND x.series_key = wm_retention_prune_events.series_key AND x.kind = 'events';
    IF NOT FOUND OR r.written_at <> now() OR NOT EXISTS (
            SELECT 1 FROM memory_projections p
            WHERE p.id = r.projection_id AND p.source_kind = 'rollup' AND (p.embedding_pending OR p.embedding IS NOT NULL)) THEN
        RAISE EXCEPTION 'retention: no rollup of % written in this transaction', series_key
            USING ERRCODE = 'check_violation';
    END IF;
    SELECT coalesce(array_agg(u.id), '{}') INTO doomed
    FROM retention_unheld_events u
    WHERE u.owner_sub = wm_owner() AND u.id = ANY (ids) AND u.occurred_at < edge
      AND u.event_type = r.event_type AND u.target_entity_id IS NOT DISTINCT FROM r.subject_id
      AND u.occurred_at >= r.month::timestamp AT TIME ZONE 'UTC'
      AND u.occurred_at < (r.month + interval '1 month')::timestamp AT TIME ZONE 'UTC';
    keys := ARRAY(SELECT (to_jsonb(d::text)::text)::ag_catalog.agtype FROM unnest(doomed) AS d);
    vertices := ARRAY(SELECT v.id FROM worldgraph."Event" v
                      WHERE ag_catalog.agtype_access_operator(v.properties, '"id"'::ag_catalog.agtype) = ANY (keys));
    DELETE FROM worldgraph."CAUSED" e WHERE e.end_id = ANY (vertices) OR e.start_id = ANY (vertices);
    DELETE FROM worldgraph."Event" v WHERE v.id = ANY (vertices);
    DELETE FROM world_events w WHERE w.id = ANY (doomed);
    RETURN cardinality(doomed);
END
$fn$;
REVOKE ALL ON FUNCTION wm_retention_prune_events(text, uuid[], timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_retention_prune_events(text, uuid[], timestamptz) TO worldmem_app;
