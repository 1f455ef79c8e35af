-- retention_fact_series: the owner's windowed fact rows that may be pruned at edge %(edge)s, counted per
-- series (subject, predicate) and UTC month of valid_from: what the job rolls up and prunes, one
-- transaction each. Columns: subject_id, subject_ref, label, predicate, month, n (rows), readings
-- (believed rows among them: what the rollup's statistics count). Index: facts_windowed (0042).
SELECT f.subject_id, e.ref AS subject_ref, e.canonical_name || ' (' || e.ref || ')' AS label, f.predicate,
       date_trunc('month', f.valid_from AT TIME ZONE 'UTC')::date AS month,
       count(*) AS n, count(*) FILTER (WHERE f.status = 'active') AS readings
FROM retention_unheld_facts f
JOIN entities e ON e.id = f.subject_id
WHERE f.owner_sub = wm_owner()
  AND wm_retention_prunable(f.retention_class, f.source, f.memory_type, f.reason, f.status, f.object_kind,
                            f.valid_to, f.superseded_at, %(edge)s::timestamptz)
GROUP BY f.subject_id, e.ref, e.canonical_name, f.predicate, 5
ORDER BY e.ref, f.predicate, 5
