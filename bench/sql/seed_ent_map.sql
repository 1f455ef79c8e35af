-- Entity i of an owner: a fresh uuid and the graphid Entity entry (offset + i). Kinds rotate.
INSERT INTO bench.ent (owner, i, id, gid, kind)
SELECT %(owner)s, i, uuidv7(),
       ag_catalog._graphid(ag_catalog._label_id('worldgraph', 'Entity')::integer, %(goff)s + i),
       (ARRAY['person', 'project', 'repo', 'file', 'test', 'place', 'organization', 'issue'])[1 + mod(i, 8)]
FROM generate_series(1, %(n)s) AS i
