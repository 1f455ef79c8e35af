SET LOCAL ROLE worldmem_owner;

-- "Believed now": the row has not been superseded. The one definition every SQL statement and function uses
-- (`WHERE wm_believed(f.superseded_at)`); wm_known(rec, sup, NULL) says the same for a system time that may
-- be NULL. The Python twin is graph/ledger/timeline.py `believed`.
-- One expression, LANGUAGE sql, IMMUTABLE and without SET, so the planner inlines it before it plans: the
-- call becomes `superseded_at IS NULL`, and the partial indexes whose predicate is that expression
-- (facts_current, entity_aliases_believed, facts_codemode, ...) match it as they match the literal. Those
-- index predicates keep the literal: an index predicate is part of the table, created before the repeatable
-- files exist. tests/test_believed.py proves the plans.
CREATE OR REPLACE FUNCTION wm_believed(superseded_at timestamptz) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN superseded_at IS NULL;

GRANT EXECUTE ON FUNCTION wm_believed(timestamptz) TO worldmem_app;
