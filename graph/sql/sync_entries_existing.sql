-- sync_entries_existing: the stored entries among a batch's keys (one integration and source), with their
-- entity. Columns: source_entry_id, kind, external_id, entity_id, content_hash, content, observed_at,
-- ref, status, merged_into_id.
SELECT s.source_entry_id, s.kind, s.external_id, s.entity_id, s.content_hash, s.content, s.observed_at,
       e.ref, e.status, e.merged_into_id
FROM unnest(%(entry_ids)s::text[], %(kinds)s::text[], %(external_ids)s::text[]) AS k(source_entry_id, kind, external_id)
JOIN sync_entries s ON s.owner_sub = wm_owner() AND s.integration = %(integration)s AND s.source = %(source)s
 AND s.source_entry_id = k.source_entry_id AND s.kind = k.kind AND s.external_id = k.external_id
JOIN entities e ON e.id = s.entity_id
