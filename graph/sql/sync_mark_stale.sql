-- sync_mark_stale: the owner's entries of an integration stop being fed (removed integration).
-- Columns: entity_id.
UPDATE sync_entries SET stale_since = %(at)s
WHERE owner_sub = wm_owner() AND integration = %(integration)s AND stale_since IS NULL
RETURNING entity_id
