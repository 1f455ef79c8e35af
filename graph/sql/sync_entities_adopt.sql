-- sync_entities_adopt: an existing entity named by the entry's ref, without an external id yet, becomes
-- the entry's entity (its external id and backing row are set once). Columns: id.
UPDATE entities e
SET external_id = r.external_id, source_entry_id = r.source_entry_id, backing_ref = r.backing_ref,
    updated_at = %(at)s
FROM jsonb_to_recordset(%(rows)s::jsonb) AS r(id uuid, external_id text, source_entry_id text, backing_ref text)
WHERE e.owner_sub = wm_owner() AND e.id = r.id AND e.external_id IS NULL
RETURNING e.id
