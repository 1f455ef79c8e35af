-- bench.search_scale: the entity projection texts of one owner of the bench seed, as the sweep writes them
-- (finder_entity_texts: name, kind, the current literal values valid now; before 2026-12-01 this bench also
-- wrote values whose valid time had ended, so every text held "status: draft"). The bench embeds them itself,
-- batched (bench/scale_vectors.py), and loads them with scale_projections: the reconciler would take hours to
-- embed 74,000 texts one sweep at a time on two cores.
-- Returns: entity_id, text
SELECT e.id AS entity_id,
       e.canonical_name || ' (' || k.name || ')' || E'\n' || coalesce(
           (SELECT string_agg(f.predicate || ': ' || f.value_text, E'\n') FROM facts f
            WHERE f.subject_id = e.id AND f.superseded_at IS NULL AND f.status = 'active' AND f.value_text IS NOT NULL
              AND (f.valid_to IS NULL OR f.valid_to > now())),
           '') AS text
FROM entities e
JOIN entity_kinds k ON k.key = e.kind
WHERE e.owner_sub = %(owner)s AND e.merged_into_id IS NULL AND k.rag
ORDER BY e.id
