-- The entity %(name)s (a ref, else one alias believed at system time %(system_time)s, now when NULL) names;
-- with %(follow)s the survivor it was merged into as of that time (wm_resolve, graph/sql/functions/: the one
-- implementation of the rule, also inside the reads of graph/sql/reads_*.sql).
-- Columns: outcome (found | not_found | ambiguous), via (ref | alias) and the entity's (NULL unless found).
SELECT outcome, via, id, ref, kind, canonical_name, status, merged_into_id, created_at
FROM wm_resolve(%(name)s, %(system_time)s::timestamptz, %(follow)s)
