SET LOCAL ROLE worldmem_owner;

-- One resolution of a name (a ref or an alias) to an entity, for the Python resolve
-- (graph/ledger/entities.py) and for the reads that resolve their ref inside their own statement
-- (graph/sql/reads_*.sql: one statement per read after the owner). The rule, as the Python resolve
-- had it in three statements (entity_by_ref, entity_by_alias, entity_survivor):
--   1. the entity whose ref is `wanted`, if it was recorded by `as_of` (before that it was unknown, as any
--      ref never recorded);
--   2. else the entities named by an alias (case-insensitive) believed at system time `as_of` (now when NULL,
--      wm_known, 0015): in each namespace its holder valid at that instant, else its latest holder (an alias
--      given up may be taken over: migration 0131, graph.ledger.alias_holding); one is found, two or more are
--      ambiguous (two are enough to know);
--   3. with `follow_merges`, the entity it stood for at `as_of` (wm_survivor, 0015), itself when that is not
--      visible; now and never merged costs no lookup.
-- Always exactly one row: `outcome` is 'found' (the entity's columns set, `via` 'ref' or 'alias': how the
-- name matched), 'not_found' or 'ambiguous' (columns NULL), so a read's statement keeps its rows and the caller raises the typed errors
-- (AMBIGUOUS_REF) as before. Invoker's rights: row-level security applies as to the statement around it
-- (unset owner: every lookup finds nothing, 'not_found'). LANGUAGE sql, STABLE, without SET: the planner may
-- inline it. The survivor id is computed in a MATERIALIZED step and looked up as a plain value: wm_survivor
-- is not leakproof, so a condition calling it would run after the RLS policy (a sequential scan; 0073).
CREATE OR REPLACE FUNCTION wm_resolve(wanted text, as_of timestamptz, follow_merges boolean)
    RETURNS TABLE (outcome text, via text, id uuid, ref text, kind text, canonical_name text, status text,
                   merged_into_id uuid, created_at timestamptz)
    LANGUAGE sql STABLE AS $fn$
    WITH by_ref AS MATERIALIZED (
        SELECT 'ref' AS via, e.id, e.merged_into_id
        FROM public.entities e
        WHERE e.owner_sub = public.wm_owner() AND e.ref = wm_resolve.wanted
          AND (wm_resolve.as_of IS NULL OR e.created_at <= wm_resolve.as_of)
    ), by_alias AS MATERIALIZED (
        SELECT DISTINCT 'alias' AS via, e.id, e.merged_into_id
        FROM (
            SELECT DISTINCT ON (a.namespace) a.entity_id
            FROM public.entity_aliases a
            WHERE NOT EXISTS (SELECT 1 FROM by_ref)
              AND a.owner_sub = public.wm_owner() AND a.alias_norm = lower(wm_resolve.wanted)
              AND public.wm_known(a.recorded_at, a.superseded_at, wm_resolve.as_of)
            ORDER BY a.namespace,
                     public.wm_during(a.valid_from, a.valid_to, coalesce(wm_resolve.as_of, now())) DESC,
                     a.valid_from DESC
        ) h
        JOIN public.entities e ON e.id = h.entity_id
        WHERE wm_resolve.as_of IS NULL OR e.created_at <= wm_resolve.as_of
        LIMIT 2
    ), named AS MATERIALIZED (
        SELECT * FROM by_ref
        UNION ALL
        SELECT * FROM by_alias
    ), chosen AS MATERIALIZED (
        SELECT n.via, n.id,
               CASE WHEN NOT wm_resolve.follow_merges
                         OR (wm_resolve.as_of IS NULL AND n.merged_into_id IS NULL) THEN n.id
                    ELSE public.wm_survivor(n.id, wm_resolve.as_of) END AS survivor_id
        FROM named n
        WHERE (SELECT count(*) FROM named) = 1
    ), found AS MATERIALIZED (
        SELECT coalesce((SELECT s.id FROM public.entities s
                         WHERE s.owner_sub = public.wm_owner() AND s.id = c.survivor_id), c.id) AS id, c.via
        FROM chosen c
    )
    SELECT CASE (SELECT count(*) FROM named) WHEN 0 THEN 'not_found' WHEN 1 THEN 'found' ELSE 'ambiguous' END,
           f.via, e.id, e.ref, e.kind, e.canonical_name, e.status, e.merged_into_id, e.created_at
    FROM (SELECT 1) AS one
    LEFT JOIN found f ON true
    LEFT JOIN public.entities e ON e.owner_sub = public.wm_owner() AND e.id = f.id
$fn$;
GRANT EXECUTE ON FUNCTION wm_resolve(text, timestamptz, boolean) TO worldmem_app;
