-- The graph mirror in AGE: Entity vertices, REL edges (relationship facts), Event vertices and
-- CAUSED edges (causation). Labels are made here so that the app never needs CREATE in the graph.
SELECT ag_catalog.create_vlabel('worldgraph', 'Entity');
SELECT ag_catalog.create_elabel('worldgraph', 'REL');
SELECT ag_catalog.create_vlabel('worldgraph', 'Event');
SELECT ag_catalog.create_elabel('worldgraph', 'CAUSED');

-- Lookups by our ids use btree on the property expression (see shared notes: query shape decides speed).
CREATE INDEX entity_id_prop ON worldgraph."Entity"
    (ag_catalog.agtype_access_operator(properties, '"id"'::ag_catalog.agtype));
CREATE INDEX event_id_prop ON worldgraph."Event"
    (ag_catalog.agtype_access_operator(properties, '"id"'::ag_catalog.agtype));
CREATE INDEX rel_id_prop ON worldgraph."REL"
    (ag_catalog.agtype_access_operator(properties, '"id"'::ag_catalog.agtype));
CREATE INDEX caused_id_prop ON worldgraph."CAUSED"
    (ag_catalog.agtype_access_operator(properties, '"id"'::ag_catalog.agtype));
CREATE INDEX IF NOT EXISTS rel_start ON worldgraph."REL" (start_id);
CREATE INDEX IF NOT EXISTS rel_end ON worldgraph."REL" (end_id);
CREATE INDEX IF NOT EXISTS caused_start ON worldgraph."CAUSED" (start_id);
CREATE INDEX IF NOT EXISTS caused_end ON worldgraph."CAUSED" (end_id);

-- The owner as agtype, for policies on label tables; NULL when unset, so nothing matches.
CREATE FUNCTION wm_owner_agtype() RETURNS ag_catalog.agtype
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN (to_jsonb(wm_owner())::text)::ag_catalog.agtype;
ALTER FUNCTION wm_owner_agtype() OWNER TO worldmem_owner;

-- Same owner policy on every label table and on the parents that unlabeled MATCH scans.
DO $rls$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['_ag_label_vertex', '_ag_label_edge', 'Entity', 'REL', 'Event', 'CAUSED']
    LOOP
        EXECUTE format('ALTER TABLE worldgraph.%I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE worldgraph.%I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY owner_only ON worldgraph.%I '
                       'USING (ag_catalog.agtype_access_operator(properties, %L::ag_catalog.agtype) = wm_owner_agtype()) '
                       'WITH CHECK (ag_catalog.agtype_access_operator(properties, %L::ag_catalog.agtype) = wm_owner_agtype())',
                       t, '"owner"', '"owner"');
        EXECUTE format('GRANT SELECT ON worldgraph.%I TO worldmem_console', t);
        EXECUTE format('GRANT SELECT, INSERT, UPDATE ON worldgraph.%I TO worldmem_app', t);
    END LOOP;
END
$rls$;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA worldgraph TO worldmem_app;

-- Without LEAKPROOF, PostgreSQL will not use an index condition ahead of an RLS policy, and every
-- label lookup becomes a sequential scan (measured 300x slower). These three are pure comparisons and
-- property access; the hostile console suite probes them for error-based leaks.
ALTER FUNCTION ag_catalog.agtype_eq(ag_catalog.agtype, ag_catalog.agtype) LEAKPROOF;
ALTER FUNCTION ag_catalog.agtype_access_operator(VARIADIC ag_catalog.agtype[]) LEAKPROOF;
ALTER FUNCTION ag_catalog.graphid_eq(ag_catalog.graphid, ag_catalog.graphid) LEAKPROOF;
