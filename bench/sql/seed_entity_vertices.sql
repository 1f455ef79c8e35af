-- Entity vertices with the properties graph/mirror.py writes.
INSERT INTO worldgraph."Entity" (id, properties)
SELECT e.gid, (jsonb_strip_nulls(jsonb_build_object(
           'id', e.id, 'owner', e.owner, 'ref', e.kind || ':e' || e.i, 'kind', e.kind,
           'name', 'Entity ' || e.i, 'status', CASE WHEN m.id IS NULL THEN 'active' ELSE 'merged' END,
           'merged_into', m.id))::text)::ag_catalog.agtype
FROM bench.ent e
LEFT JOIN bench.ent m ON m.owner = e.owner AND mod(e.i, 100) = 50 AND m.i = e.i - 1
WHERE e.owner = %(owner)s
