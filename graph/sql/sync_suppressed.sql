-- sync_suppressed: which of a batch's new values the owner rejected before (live, unscoped markers, as
-- gov_suppression_live, for many at once; a marker on an entity since merged into the subject holds).
-- Columns: subject_id, predicate, value_key.
SELECT DISTINCT k.subject_id, k.predicate, k.value_key
FROM unnest(%(subjects)s::uuid[], %(predicates)s::text[], %(value_keys)s::text[]) AS k(subject_id, predicate, value_key)
JOIN suppression_markers m ON m.owner_sub = wm_owner() AND m.predicate = k.predicate AND m.value_key = k.value_key
 AND m.scope_entity_id IS NULL AND m.lifted_at IS NULL
LEFT JOIN entities merged ON merged.id = m.subject_id
WHERE m.subject_id = k.subject_id OR merged.merged_into_id = k.subject_id
