-- retention_permanent_count: the owner's fact rows that are never pruned (every class but windowed), for
-- the job's report. Columns: n.
SELECT count(*) AS n FROM facts WHERE owner_sub = wm_owner() AND retention_class <> 'windowed'
