-- mirror_rels_insert: REL edges for many relationship fact rows in one statement, exactly what
-- cypher/mirror_create_rel.cypher's MATCH ... CREATE stores per row: both endpoints found by their id property
-- through entity_id_prop (the same expression Cypher's `a.id = $subject` compiles to), a graphid from the
-- label's sequence, the properties as given with null ones left out. %(rows)s: JSON array of
-- {subject, object, props} (graph/age/mirror_batch.py). Columns: n (edges created; a missing endpoint
-- creates none, and the caller compares n with the rows it sent).
-- The endpoint keys are computed first (rows): a join condition that applies a function which is not
-- LEAKPROOF (jsonb's ->, the casts) to a column is kept behind the label table's row-level security, so
-- each row would scan every vertex of the owner (measured: 2.7 s for 200 edges next to 4,500 vertices).
-- Each endpoint is its own LATERAL subquery (OFFSET 0 keeps it one): one entity_id_prop probe per row. As a
-- plain join the planner hashed a scan of all the owner's vertices per statement while the label table was
-- small (11-13 ms per flush at 1,500 vertices, growing with the owner).
WITH rows AS MATERIALIZED (
    SELECT x.n, (x.r -> 'props') AS props,
           ((x.r -> 'subject')::text)::ag_catalog.agtype AS subject,
           ((x.r -> 'object')::text)::ag_catalog.agtype AS object
    FROM jsonb_array_elements(%(rows)s::jsonb) WITH ORDINALITY AS x(r, n)
), created AS (
    INSERT INTO worldgraph."REL" (id, start_id, end_id, properties)
    SELECT ag_catalog._graphid(ag_catalog._label_id('worldgraph', 'REL')::integer, nextval('worldgraph."REL_id_seq"')),
           a.id, b.id, (jsonb_strip_nulls(rows.props)::text)::ag_catalog.agtype
    FROM rows
    CROSS JOIN LATERAL (
        SELECT a.id FROM worldgraph."Entity" a
        WHERE ag_catalog.agtype_access_operator(a.properties, '"id"'::ag_catalog.agtype) = rows.subject OFFSET 0
    ) a
    CROSS JOIN LATERAL (
        SELECT b.id FROM worldgraph."Entity" b
        WHERE ag_catalog.agtype_access_operator(b.properties, '"id"'::ag_catalog.agtype) = rows.object OFFSET 0
    ) b
    ORDER BY rows.n
    RETURNING 1
)
SELECT count(*) AS n FROM created
