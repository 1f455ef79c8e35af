-- Rows believed now that say exactly what one of the given rows says (same subject, predicate, object,
-- scope and valid period): the current copies of rows a merge inserted, even after later merges and
-- splits copied them again.
SELECT DISTINCT f.id
FROM facts n
JOIN facts f ON f.owner_sub = n.owner_sub AND f.subject_id = n.subject_id AND f.predicate = n.predicate
            AND f.object_kind = n.object_kind AND f.object_value IS NOT DISTINCT FROM n.object_value
            AND f.object_entity_id IS NOT DISTINCT FROM n.object_entity_id
            AND f.scope_entity_id IS NOT DISTINCT FROM n.scope_entity_id AND f.valid = n.valid
            AND f.believed = n.believed
WHERE n.owner_sub = wm_owner() AND n.id = ANY(%(ids)s)
  AND wm_believed(f.superseded_at) AND f.status IN ('proposed', 'pending', 'active')
