-- The containers of scope refs (%(refs)s): where each sits by believed, unscoped `part_of` facts valid at
-- %(at)s, up to three steps (a repo part_of a folder part_of a project), keeping the projects, folders and
-- repos met. The context builder puts them after the ref in the scope chain: repo > project/folder > global.
-- Columns: child (the ref asked), parent (a container's ref), depth (1 = directly).
-- Shape: every step is a LATERAL lookup by key, so the plan cannot depend on how many relationships an
-- owner has: entities_owner_ref for the refs, a subject index of facts per step,
-- entities_pkey for the containers. (A plain join let the planner scan facts_object, every relationship
-- row, when the statistics showed few; and the kind filter pushed into the container lookup scanned the
-- owner's repos and projects by entities_owner_kind.)
WITH RECURSIVE up (child, id, depth) AS (
    SELECT e.ref, e.id, 0
    FROM entities e
    WHERE e.owner_sub = wm_owner() AND e.ref = ANY(%(refs)s)
    UNION ALL
    SELECT up.child, f.object_entity_id, up.depth + 1
    FROM up
    CROSS JOIN LATERAL (
        SELECT object_entity_id
        FROM facts
        WHERE owner_sub = wm_owner() AND subject_id = up.id AND predicate = 'part_of'
          AND wm_believed(superseded_at) AND status = 'active' AND scope_entity_id IS NULL
          AND object_entity_id IS NOT NULL
          AND wm_during(valid_from, valid_to, %(at)s)
    ) AS f
    WHERE up.depth < 3
)
SELECT up.child, p.ref AS parent, up.depth
FROM up
-- OFFSET 0 keeps the kind filter out of the lookup by primary key
CROSS JOIN LATERAL (SELECT ref, kind FROM entities WHERE id = up.id OFFSET 0) AS p
WHERE up.depth > 0 AND p.kind IN ('project', 'folder', 'repo')
ORDER BY up.child, up.depth, p.ref
