SET LOCAL ROLE worldmem_owner;

-- Delete every row of the owner set as app.current_owner (and only that one: p_owner must name it): every
-- table with an owner_sub column, found in the catalog (so a table added later is included), in passes
-- until none refuses for a row still referenced; the graph mirror's vertices and edges; the vocabulary the
-- owner registered that nobody else's rows use. Returns the receipt's id.
CREATE OR REPLACE FUNCTION wm_delete_owner(p_owner text, p_by text) RETURNS uuid
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, ag_catalog, pg_temp AS $fn$
DECLARE
    receipt uuid := uuidv7();
    c jsonb := '{}'::jsonb;
    n bigint;
    tbl text;
    pending text[];
    left_over text[];
    at timestamptz := clock_timestamp();
BEGIN
    IF p_owner IS NULL OR p_owner IS DISTINCT FROM wm_owner() THEN
        RAISE EXCEPTION 'an owner is deleted only as that owner' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_by NOT IN ('admin', 'owner') OR (p_by = 'admin' AND NOT (SELECT r.rolsuper FROM pg_roles r
                                                                    WHERE r.rolname = session_user)) THEN
        RAISE EXCEPTION 'only the administrator deletes as admin' USING ERRCODE = 'insufficient_privilege';
    END IF;
    PERFORM 1 FROM owner_clock WHERE owner_sub = p_owner FOR UPDATE;  -- after every commit in flight
    -- the owner policy limits both to the owner's rows already; the condition says so here too
    DELETE FROM worldgraph._ag_label_edge g WHERE (g.properties::text::jsonb ->> 'owner') = p_owner;
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('graph:edges', n);
    DELETE FROM worldgraph._ag_label_vertex v WHERE (v.properties::text::jsonb ->> 'owner') = p_owner;
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('graph:vertices', n);

    SELECT array_agg(cl.relname::text ORDER BY cl.relname) INTO pending
    FROM pg_class cl JOIN pg_attribute a ON a.attrelid = cl.oid AND a.attname = 'owner_sub' AND NOT a.attisdropped
    WHERE cl.relnamespace = 'public'::regnamespace AND cl.relkind IN ('r', 'p') AND NOT cl.relispartition;
    FOR pass IN 1..20 LOOP
        EXIT WHEN cardinality(pending) = 0;
        left_over := ARRAY[]::text[];
        FOREACH tbl IN ARRAY pending LOOP
            BEGIN
                EXECUTE format('DELETE FROM public.%I WHERE owner_sub = $1', tbl) USING p_owner;
                GET DIAGNOSTICS n = ROW_COUNT;
                c := c || jsonb_build_object(tbl, n);
            EXCEPTION WHEN foreign_key_violation THEN
                left_over := left_over || tbl;  -- another of the owner's tables still points here: next pass
            END;
        END LOOP;
        pending := left_over;
    END LOOP;
    IF cardinality(pending) > 0 THEN
        RAISE EXCEPTION 'owner deletion: % still referenced', pending USING ERRCODE = 'foreign_key_violation';
    END IF;
    BEGIN
        DELETE FROM relation_types WHERE registered_owner = p_owner;
        GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('relation_types', n);
    EXCEPTION WHEN foreign_key_violation THEN
        c := c || jsonb_build_object('relation_types', 0);  -- in use by another owner's rows: it stays
    END;
    BEGIN
        DELETE FROM entity_kinds WHERE registered_owner = p_owner;
        GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('entity_kinds', n);
    EXCEPTION WHEN foreign_key_violation THEN
        c := c || jsonb_build_object('entity_kinds', 0);
    END;
    INSERT INTO owner_deletions (id, owner_hash, requested_by, deleted_at, counts, receipt_hash)
    VALUES (receipt, wm_erasure_hash(p_owner), p_by, at, c, encode(sha256(convert_to(jsonb_build_object(
        'id', receipt, 'owner', wm_erasure_hash(p_owner), 'by', p_by, 'at', at, 'counts', c)::text, 'UTF8')), 'hex'));
    RETURN receipt;
END
$fn$;
REVOKE ALL ON FUNCTION wm_delete_owner(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_delete_owner(text, text) TO worldmem_app;
