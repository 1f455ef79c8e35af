-- Ledger rows; one entity in a hundred is merged into its predecessor.
INSERT INTO entities (id, owner_sub, ref, kind, canonical_name, status, merged_into_id, created_at,
                      updated_at, run_id)
SELECT e.id, e.owner, e.kind || ':e' || e.i, e.kind, 'Entity ' || e.i,
       CASE WHEN m.id IS NULL THEN 'active' ELSE 'merged' END, m.id, %(t0)s, %(t0)s, 'bench-seed'
FROM bench.ent e
LEFT JOIN bench.ent m ON m.owner = e.owner AND mod(e.i, 100) = 50 AND m.i = e.i - 1
WHERE e.owner = %(owner)s
