-- The context's entities as worldContext read them before context_block.sql (one round trip) replaced this
-- statement: kept only as tests/test_context_block.py's independent oracle, never loaded by the product.
-- The context builder reads these rows as the 'entity' part of context_block.sql (one round
-- trip); this statement stays as the reference that part is tested against (tests/test_context_block.py).
-- The entities of one context, in one query: message spans that equal a ref (%(refs)s), a canonical
-- name or a believed alias valid at %(at)s (%(spans)s, lower case); the owner's person entity (wm_owner_person,
-- migrations/0085); and active policies. A merged entity stands for its
-- survivor (the end of its merge chain now: wm_survivor, migrations/0015_as_of.sql). seen_at (when the alias was recorded) lets chat aliases win by recency.
-- (No coalesce() in a join condition: under RLS it is not leakproof, and the join became a seq scan.)
-- The survivor id is computed in a MATERIALIZED step and joined as a plain column: wm_survivor is not
-- leakproof, so a join condition calling it would run after the RLS policy (a sequential scan).
WITH hits AS (
    SELECT ref AS span, id AS entity_id, 'ref' AS via, NULL::text AS namespace, NULL::timestamptz AS seen_at
    FROM entities
    WHERE owner_sub = wm_owner() AND ref = ANY(%(refs)s)
    UNION ALL
    SELECT name_norm, id, 'name', NULL, NULL
    FROM entities
    WHERE owner_sub = wm_owner() AND name_norm = ANY(%(spans)s)
    UNION ALL
    SELECT alias_norm, entity_id, 'alias', namespace, recorded_at
    FROM entity_aliases
    WHERE owner_sub = wm_owner() AND alias_norm = ANY(%(spans)s) AND superseded_at IS NULL
      AND valid_from <= %(at)s AND (valid_to IS NULL OR valid_to > %(at)s)
    UNION ALL
    SELECT NULL, id, 'owner', NULL, NULL
    FROM entities
    WHERE owner_sub = wm_owner() AND id = wm_owner_person(%(at)s)
    UNION ALL
    (SELECT NULL, id, 'policy', NULL, NULL
     FROM entities
     WHERE owner_sub = wm_owner() AND kind = 'policy' AND status = 'active'
     ORDER BY created_at, id
     LIMIT %(max_policies)s)
), resolved AS MATERIALIZED (
    SELECT h.*, CASE WHEN e.merged_into_id IS NULL THEN e.id ELSE wm_survivor(e.id, NULL) END AS survivor_id
    FROM hits h
    JOIN entities e ON e.id = h.entity_id
)
SELECT h.span, h.via, h.namespace, h.seen_at, s.id, s.ref, s.kind, s.canonical_name AS name
FROM resolved h
JOIN entities s ON s.id = h.survivor_id
