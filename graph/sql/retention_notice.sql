-- retention_notice: for a read about %(subject_id)s at valid time %(valid_time)s: the owner's edge, and the
-- entity's fact rollups of the month of that time. No edge: no row (wm_notice_as_of, migrations/0075, which
-- the reads of graph/sql/reads_*.sql call inside their own statement).
-- Columns: edge, rolled_up (whether the entity has any rollup), rollups (jsonb array of {projection_id,
-- predicate, month, text}, by predicate). Index: retention_rollups_subject.
SELECT edge, rolled_up, rollups FROM wm_notice_as_of(%(subject_id)s, %(valid_time)s::timestamptz)
