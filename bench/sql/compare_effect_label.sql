-- Bench-only experiment (never in a migration): facts an event caused mirrored as
-- (Event)-[:EFFECT {id: fact id}]->(subject Entity), with the owner policy of migration 0004.
DO $effect$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM ag_catalog.ag_label WHERE name = 'EFFECT') THEN
        PERFORM ag_catalog.create_elabel('worldgraph', 'EFFECT');
        CREATE INDEX effect_start ON worldgraph."EFFECT" (start_id);
        ALTER TABLE worldgraph."EFFECT" ENABLE ROW LEVEL SECURITY;
        ALTER TABLE worldgraph."EFFECT" FORCE ROW LEVEL SECURITY;
        CREATE POLICY owner_only ON worldgraph."EFFECT"
            USING (ag_catalog.agtype_access_operator(properties, '"owner"'::ag_catalog.agtype) = wm_owner_agtype());
        GRANT SELECT ON worldgraph."EFFECT" TO worldmem_app;
        INSERT INTO worldgraph."EFFECT" (start_id, end_id, properties)
        SELECT v.gid, s.gid, (jsonb_build_object('id', f.id, 'owner', f.owner_sub)::text)::ag_catalog.agtype
        FROM facts f
        JOIN bench.ev v ON v.id = f.caused_by_event_id
        JOIN bench.ent s ON s.id = f.subject_id;
        ANALYZE worldgraph."EFFECT";
    END IF;
END
$effect$
