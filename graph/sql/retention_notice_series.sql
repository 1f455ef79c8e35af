-- retention_notice_series: for a read of the whole series (%(subject_id)s, %(predicate)s) (its history, or
-- the supersedes chain of one of its rows): the owner's edge and every fact rollup of that series, oldest
-- month first. No edge: no row; an empty array: nothing of the series was ever rolled up
-- (wm_notice_series, graph/sql/functions/, which reads_fact_history.sql calls inside its own statement).
-- Columns: edge, rollups (jsonb array of {projection_id, predicate, month, text}).
-- Index: retention_rollups_subject (owner_sub, subject_id, month).
SELECT edge, rollups FROM wm_notice_series(%(subject_id)s, %(predicate)s)
