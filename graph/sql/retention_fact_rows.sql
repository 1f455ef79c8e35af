-- retention_fact_rows: the prunable rows of one series and month (as retention_fact_series), locked so
-- that no commit changes them between the rollup and the prune. Columns: id, valid_from, value, status.
SELECT f.id, f.valid_from, f.object_value AS value, f.status
FROM facts f
WHERE f.owner_sub = wm_owner() AND f.retention_class = 'windowed'
  AND f.subject_id = %(subject_id)s AND f.predicate = %(predicate)s
  AND f.valid_from >= %(month_start)s AND f.valid_from < %(month_end)s
  AND wm_retention_prunable(f.retention_class, f.source, f.memory_type, f.reason, f.status, f.object_kind,
                            f.valid_to, f.superseded_at, %(edge)s::timestamptz)
  AND NOT wm_retention_held(f.id)
ORDER BY f.valid_from, f.id
FOR UPDATE OF f
