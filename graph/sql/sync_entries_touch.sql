-- sync_entries_touch: unchanged entries only move last_synced_at. Columns: none.
UPDATE sync_entries s SET last_synced_at = %(at)s
FROM unnest(%(entry_ids)s::text[], %(kinds)s::text[], %(external_ids)s::text[]) AS k(source_entry_id, kind, external_id)
WHERE s.owner_sub = wm_owner() AND s.integration = %(integration)s AND s.source = %(source)s
  AND s.source_entry_id = k.source_entry_id AND s.kind = k.kind AND s.external_id = k.external_id
