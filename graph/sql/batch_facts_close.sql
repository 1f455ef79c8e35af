-- batch_facts_close: close the system time of many believed rows (as facts_close, one row per close).
-- Columns: n (rows closed; the caller compares it with the closes it sent).
WITH closed AS (
    UPDATE facts f SET superseded_at = c.at, status = c.status, invalidated_by_fact_id = c.invalidated_by
    FROM unnest(%(id)s::uuid[], %(at)s::timestamptz[], %(status)s::text[], %(invalidated_by)s::uuid[])
         AS c(id, at, status, invalidated_by)
    WHERE f.id = c.id AND wm_believed(f.superseded_at)
    RETURNING 1
)
SELECT count(*) AS n FROM closed
