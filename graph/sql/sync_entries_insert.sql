-- sync_entries_insert: remember new entries (content and hash), set-based. Columns: none.
INSERT INTO sync_entries (integration, source, source_entry_id, kind, external_id, entity_id, content_hash,
                          content, observed_at, first_synced_at, last_synced_at)
SELECT %(integration)s, %(source)s, r.source_entry_id, r.kind, r.external_id, r.entity_id, r.content_hash,
       r.content, r.observed_at, %(at)s, %(at)s
FROM jsonb_to_recordset(%(rows)s::jsonb) AS r(source_entry_id text, kind text, external_id text, entity_id uuid,
                                               content_hash text, content jsonb, observed_at timestamptz)
