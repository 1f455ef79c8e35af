-- The supersedes chain of one fact: the older rows it replaced (link by link) and the rows that
-- replaced it in turn. `relation` says which side; `hops` counts links from the fact.
WITH RECURSIVE older (id, hops) AS (
    SELECT supersedes_fact_id, 1 FROM facts
    WHERE owner_sub = wm_owner() AND id = %(id)s AND supersedes_fact_id IS NOT NULL
    UNION ALL
    SELECT f.supersedes_fact_id, o.hops + 1
    FROM facts f JOIN older o ON f.id = o.id
    WHERE f.owner_sub = wm_owner() AND f.supersedes_fact_id IS NOT NULL AND o.hops < 50
), newer (id, hops) AS (
    SELECT id, 1 FROM facts WHERE owner_sub = wm_owner() AND supersedes_fact_id = %(id)s
    UNION ALL
    SELECT f.id, n.hops + 1
    FROM facts f JOIN newer n ON f.supersedes_fact_id = n.id
    WHERE f.owner_sub = wm_owner() AND n.hops < 50
), chain AS (
    SELECT id, 'supersedes' AS relation, hops FROM older
    UNION ALL
    SELECT id, 'superseded_by', hops FROM newer
)
SELECT f.*, c.relation, c.hops, o.ref AS object_ref, sc.ref AS scope_ref
FROM chain c
JOIN facts f ON f.id = c.id
LEFT JOIN entities o ON o.id = f.object_entity_id
LEFT JOIN entities sc ON sc.id = f.scope_entity_id
WHERE f.owner_sub = wm_owner()
ORDER BY c.relation, c.hops, f.valid_from
