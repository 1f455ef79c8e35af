-- sync_entities_for_keys: entities a batch's new entries may already name, by (kind, external id) or by
-- their ref `kind:externalId`. Columns: id, ref, kind, external_id, status, merged_into_id, by_ref.
SELECT e.id, e.ref, e.kind, e.external_id, e.status, e.merged_into_id, false AS by_ref
FROM unnest(%(kinds)s::text[], %(external_ids)s::text[]) AS k(kind, external_id)
JOIN entities e ON e.owner_sub = wm_owner() AND e.kind = k.kind AND e.external_id = k.external_id
UNION ALL
SELECT e.id, e.ref, e.kind, e.external_id, e.status, e.merged_into_id, true AS by_ref
FROM entities e
WHERE e.owner_sub = wm_owner() AND e.ref = ANY(%(refs)s::text[])
