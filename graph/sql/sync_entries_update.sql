-- sync_entries_update: the new content of changed entries, set-based (a change also ends staleness).
-- Columns: none.
UPDATE sync_entries s
SET content_hash = r.content_hash, content = r.content, observed_at = r.observed_at, last_synced_at = %(at)s,
    stale_since = NULL
FROM jsonb_to_recordset(%(rows)s::jsonb)
     AS r(source_entry_id text, kind text, external_id text, content_hash text, content jsonb, observed_at timestamptz)
WHERE s.owner_sub = wm_owner() AND s.integration = %(integration)s AND s.source = %(source)s
  AND s.source_entry_id = r.source_entry_id AND s.kind = r.kind AND s.external_id = r.external_id
