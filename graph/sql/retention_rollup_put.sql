-- retention_rollup_put: write (or rewrite) a series' rollup; written_at = now() marks it as written by this
-- transaction, which wm_retention_prune_facts requires before it deletes anything (0043).
INSERT INTO retention_rollups (series_key, kind, subject_id, predicate, event_type, month, stats, rows_rolled,
                               projection_id, written_at)
VALUES (%(series_key)s, %(kind)s, %(subject_id)s, %(predicate)s, %(event_type)s, %(month)s, %(stats)s,
        %(rows_rolled)s, %(projection_id)s, now())
ON CONFLICT (owner_sub, series_key) DO UPDATE
SET stats = EXCLUDED.stats, rows_rolled = EXCLUDED.rows_rolled, projection_id = EXCLUDED.projection_id,
    written_at = now()
