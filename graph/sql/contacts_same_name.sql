-- Active persons whose name, lower-cased with umlauts written out (ä ö ü ß -> ae oe ue ss, the same fold as
-- graph.agent.german.fold), equals %(folded)s: a weak signal, never merged automatically. Columns: id, ref,
-- kind, canonical_name, created_at. Reads the owner's persons by entities_owner_kind.
SELECT e.id, e.ref, e.kind, e.canonical_name, e.created_at
FROM entities e
WHERE e.owner_sub = wm_owner() AND e.kind = 'person' AND e.status = 'active'
  AND replace(replace(replace(replace(lower(e.canonical_name), 'ä', 'ae'), 'ö', 'oe'), 'ü', 'ue'), 'ß', 'ss')
      = %(folded)s
ORDER BY e.created_at, e.id
LIMIT 20
