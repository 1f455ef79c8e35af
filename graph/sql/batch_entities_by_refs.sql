-- batch_entities_by_refs: the owner's entities named by any of %(refs)s (exact refs, one index probe each:
-- entities_owner_ref). Columns as entity_by_ref.
SELECT id, ref, kind, canonical_name, status, merged_into_id, created_at
FROM entities WHERE owner_sub = wm_owner() AND ref = ANY(%(refs)s::text[])
