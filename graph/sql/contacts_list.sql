-- The owner's contacts: active person entities, by name, optionally only those whose folded name (see
-- contacts_same_name.sql) contains %(folded)s. Columns: id, ref, canonical_name.
SELECT e.id, e.ref, e.canonical_name
FROM entities e
WHERE e.owner_sub = wm_owner() AND e.kind = 'person' AND e.status = 'active'
  AND (%(folded)s::text IS NULL OR strpos(
        replace(replace(replace(replace(lower(e.canonical_name), 'ä', 'ae'), 'ö', 'oe'), 'ü', 'ue'), 'ß', 'ss'),
        %(folded)s::text) > 0)
ORDER BY lower(e.canonical_name), e.ref
LIMIT %(limit)s OFFSET %(offset)s
