-- The transaction owner's lexeme as a query (no owner: NULL, which matches nothing). Not LEAKPROOF and not
-- needed to be: it reads no row. finder_search_text calls it as a scalar subquery (an InitPlan), so the
-- planner cannot fold it into a constant and estimates it at the default 0.5 %: the two conditions together
-- look rare, and the owner btree is not ANDed in (with the owner folded in, every owner's lexeme is in all
-- of its rows, and the plan went back to the 74,000-row bitmap).
CREATE OR REPLACE FUNCTION public.wm_owner_tsquery() RETURNS tsquery
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN quote_literal('wmowner' || md5(public.wm_owner()))::tsquery;
