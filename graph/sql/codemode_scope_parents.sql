-- The containers of scope refs (%(refs)s): where each sits by believed, unscoped `part_of` facts valid at
-- %(at)s, up to three steps (a repo part_of a folder part_of a project), keeping the projects, folders and
-- repos met. The context builder puts them after the ref in the scope chain: repo > project/folder > global.
-- Columns: child (the ref asked), parent (a container's ref), depth (1 = directly). Indexes: entities'
-- (owner_sub, ref) and facts_current (owner_sub, subject_id, predicate) per step.
WITH RECURSIVE up (child, id, depth) AS (
    SELECT e.ref, e.id, 0
    FROM entities e
    WHERE e.owner_sub = wm_owner() AND e.ref = ANY(%(refs)s)
    UNION ALL
    SELECT up.child, f.object_entity_id, up.depth + 1
    FROM up
    JOIN facts f ON f.owner_sub = wm_owner() AND f.subject_id = up.id AND f.predicate = 'part_of'
    WHERE up.depth < 3 AND f.superseded_at IS NULL AND f.status = 'active' AND f.scope_entity_id IS NULL
      AND f.object_entity_id IS NOT NULL
      AND f.valid_from <= %(at)s AND (f.valid_to IS NULL OR f.valid_to > %(at)s)
)
SELECT up.child, p.ref AS parent, up.depth
FROM up
JOIN entities p ON p.id = up.id
WHERE up.depth > 0 AND p.kind IN ('project', 'folder', 'repo')
ORDER BY up.child, up.depth, p.ref
