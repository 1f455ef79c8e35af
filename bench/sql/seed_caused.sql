-- One CAUSED edge per caused event, from cause to effect, as graph/mirror.py writes them.
INSERT INTO worldgraph."CAUSED" (id, start_id, end_id, properties)
SELECT ag_catalog._graphid(ag_catalog._label_id('worldgraph', 'CAUSED')::integer,
                           %(coff)s + row_number() OVER (ORDER BY v.k, v.slot)),
       c.gid, v.gid,
       (jsonb_build_object('id', c.id::text || '>' || v.id::text, 'owner', v.owner,
                           'kind', 'direct')::text)::ag_catalog.agtype
FROM bench.ev v
JOIN bench.ev c ON c.owner = v.owner AND c.k = v.k AND c.slot = CASE WHEN v.slot = 1 THEN 0 ELSE 1 END
WHERE v.owner = %(owner)s AND v.slot > 0
