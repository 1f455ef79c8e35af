-- erasure_tombstone: the latest erasure of %(ref)s (the entity, or its %(predicate)s when one is named).
-- Columns: id, kind, predicate, erased_at
SELECT id, kind, predicate, erased_at
FROM erasures
WHERE owner_sub = wm_owner() AND target_hashes @> ARRAY[wm_erasure_hash(%(ref)s)]
  AND (kind = 'entity' OR predicate = %(predicate)s)
ORDER BY erased_at DESC
LIMIT 1
