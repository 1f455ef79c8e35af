SET LOCAL ROLE worldmem_owner;

-- Merges carry their own system time ([recorded_at, split_at) in entity_merges). Now (r NULL) the chain is
-- entities.merged_into_id, which merge and split keep equal to the open merges and which the graph
-- mirror, doctor and the hot read paths use; a chain is at most 16 hops (as before).
CREATE OR REPLACE FUNCTION wm_survivor(entity uuid, r timestamptz) RETURNS uuid
    LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $fn$
DECLARE
    cur uuid := entity;
    next uuid;
BEGIN
    FOR hop IN 1..16 LOOP
        IF r IS NULL THEN
            SELECT e.merged_into_id INTO next FROM entities e WHERE e.owner_sub = wm_owner() AND e.id = cur;
        ELSE
            SELECT m.into_id INTO next
            FROM entity_merges m
            WHERE m.owner_sub = wm_owner() AND m.merged_id = cur AND wm_known(m.recorded_at, m.split_at, r)
            ORDER BY m.recorded_at DESC
            LIMIT 1;
        END IF;
        EXIT WHEN next IS NULL;
        cur := next;
    END LOOP;
    RETURN cur;
END
$fn$;
GRANT EXECUTE ON FUNCTION wm_survivor(uuid, timestamptz) TO worldmem_app;
