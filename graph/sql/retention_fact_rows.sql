-- retention_fact_rows: the prunable rows of one series and month (as retention_fact_series), locked so
-- that no commit changes them between the rollup and the prune (the lock is taken on facts: a view cannot
-- be locked by the app). Columns: id, valid_from, value, status.
SELECT d.id, d.valid_from, d.object_value AS value, d.status
FROM facts d
WHERE d.owner_sub = wm_owner() AND d.id IN (
    SELECT f.id FROM retention_unheld_facts f
    WHERE f.owner_sub = wm_owner()
      AND f.subject_id = %(subject_id)s AND f.predicate = %(predicate)s
      AND f.valid_from >= %(month_start)s AND f.valid_from < %(month_end)s
      AND wm_retention_prunable(f.retention_class, f.source, f.memory_type, f.reason, f.status, f.object_kind,
                                f.valid_to, f.superseded_at, %(edge)s::timestamptz))
ORDER BY d.valid_from, d.id
FOR UPDATE OF d
