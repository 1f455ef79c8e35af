-- sync_facts_believed: the believed unscoped rows of a batch's (subject, predicate) keys, locked (as
-- facts_believed_for_update, for many keys at once). Columns: every column of facts.
SELECT f.*
FROM unnest(%(subjects)s::uuid[], %(predicates)s::text[]) AS k(subject_id, predicate)
JOIN facts f ON f.owner_sub = wm_owner() AND f.subject_id = k.subject_id AND f.predicate = k.predicate
WHERE f.scope_entity_id IS NULL AND wm_believed(f.superseded_at) AND f.status = 'active'
ORDER BY f.subject_id, f.predicate, f.valid_from
FOR UPDATE OF f
