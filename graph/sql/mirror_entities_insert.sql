-- mirror_entities_insert: Entity vertices for many new entities in one statement, exactly what
-- cypher/mirror_create_entity.cypher's CREATE stores per entity: the graphid from the label's own sequence, the
-- properties as given with null ones left out (CREATE stores no null property). %(rows)s: JSON array of
-- property maps (graph/age/mirror_batch.py). Columns: n (vertices created). The label tables' row-level
-- security applies as to CREATE (worldmem_app may INSERT there and use the sequences, migration 0004).
WITH created AS (
    INSERT INTO worldgraph."Entity" (id, properties)
    SELECT ag_catalog._graphid(ag_catalog._label_id('worldgraph', 'Entity')::integer,
                               nextval('worldgraph."Entity_id_seq"')),
           (jsonb_strip_nulls(x.props)::text)::ag_catalog.agtype
    FROM jsonb_array_elements(%(rows)s::jsonb) WITH ORDINALITY AS x(props, n)
    ORDER BY x.n
    RETURNING 1
)
SELECT count(*) AS n FROM created
