-- The texts of entity projections: rag-kind entities (entity_kinds.rag, migration 0039), not merged away,
-- either the next %(batch)s after %(after)s in id order (the reconciler's sweep) or those with the given
-- refs (after a commit). One text per entity: name, kind, description, believed aliases and current literal
-- values (at most 30, the most recent first, equal times in the order they were written: the same text for
-- the same facts on every pass, so a re-projection rewrites nothing that did not change); what is true is
-- still read from the ledger, the text only finds the entity.
-- Returns: id, ref, text
WITH picked AS (
    SELECT e.id, e.ref, e.canonical_name, e.description, k.name AS kind_name
    FROM entities e
    JOIN entity_kinds k ON k.key = e.kind
    WHERE e.owner_sub = wm_owner() AND e.merged_into_id IS NULL AND k.rag
      AND (CASE WHEN %(refs)s::text[] IS NULL THEN e.id > %(after)s::uuid ELSE e.ref = ANY(%(refs)s::text[]) END)
    ORDER BY e.id
    LIMIT %(batch)s
)
SELECT p.id, p.ref,
       left(concat_ws(E'\n',
           p.canonical_name || ' (' || p.kind_name || ')',
           p.description,
           (SELECT 'also called: ' || string_agg(a.alias, ', ' ORDER BY a.alias)
            FROM entity_aliases a
            WHERE a.owner_sub = wm_owner() AND a.entity_id = p.id AND wm_believed(a.superseded_at)
              AND wm_during(a.valid_from, a.valid_to, now())),
           (SELECT string_agg(replace(v.predicate, '_', ' ') || ': ' || v.value_text, E'\n'
                              ORDER BY v.valid_from DESC, v.id)
            FROM (SELECT f.id, f.valid_from, f.predicate, f.value_text
                  FROM facts f
                  WHERE f.owner_sub = wm_owner() AND f.subject_id = p.id AND wm_believed(f.superseded_at)
                    AND f.status = 'active' AND f.value_text IS NOT NULL
                    AND (f.valid_to IS NULL OR f.valid_to > now())
                  ORDER BY f.valid_from DESC, f.id
                  LIMIT 30) v)), 8000) AS text
FROM picked p
ORDER BY p.id
