SET LOCAL ROLE worldmem_owner;

-- A text query in the terms of the projection text indexes (wm_owned_words, migration 0186): each lexeme of
-- `q` tagged with the transaction owner and a class, the episodes' ('e'), the other projections' ('x') or
-- both (their tagged queries ORed). No owner: NULL, which matches nothing; a query without lexemes (only
-- stop words) stays without, and matches nothing. Not LEAKPROOF and not needed to be: it reads no row, and
-- the statements call it once per query (an InitPlan or a materialized CTE), not per row.
-- The rewrite works on the query's text form, where every lexeme is one quoted string ('' for a quote
-- inside it): the tag goes in after the opening quote, operators, prefixes (:*) and weights stay.
CREATE OR REPLACE FUNCTION public.wm_owned_query(q tsquery, episodes boolean, others boolean) RETURNS tsquery
    LANGUAGE plpgsql STABLE PARALLEL SAFE AS $fn$
DECLARE
    owner_tag constant text := substr(md5(public.wm_owner()), 1, 16);
    lexeme constant text := '''((?:[^'']|'''')*)''';
    x tsquery;
    e tsquery;
BEGIN
    IF owner_tag IS NULL OR q IS NULL OR numnode(q) = 0 THEN
        RETURN CASE WHEN owner_tag IS NULL THEN NULL ELSE q END;
    END IF;
    x := regexp_replace(q::text, lexeme, '''' || owner_tag || 'x\1''', 'g')::tsquery;
    e := regexp_replace(q::text, lexeme, '''' || owner_tag || 'e\1''', 'g')::tsquery;
    RETURN CASE WHEN others AND episodes THEN x || e WHEN episodes THEN e WHEN others THEN x END;
END
$fn$;
