-- Entity projections for one owner of the bench seed, set-based (as the admin: the reconciler would take
-- hours to embed 100,000 texts on two cores). The text is what the sweep writes (finder_entity_texts: name,
-- kind, the current literal values valid now; before 2026-12-01 this bench also wrote values whose valid time
-- had ended, so every text held "status: draft" and the text list ranked all 74,000 for "draft"); the embedding is a random unit vector under the offline model's name: it measures the index
-- and the query's cost, not meaning (bench.retrieval_eval measures that).
INSERT INTO memory_projections (owner_sub, source_kind, source_key, text, entity_ids, embedding, embedding_model,
                                embedding_pending)
SELECT e.owner_sub, 'entity', e.id::text,
       e.canonical_name || ' (' || k.name || ')' || E'\n' || coalesce(
           (SELECT string_agg(f.predicate || ': ' || f.value_text, E'\n') FROM facts f
            WHERE f.subject_id = e.id AND f.superseded_at IS NULL AND f.status = 'active' AND f.value_text IS NOT NULL
              AND (f.valid_to IS NULL OR f.valid_to > now())),
           ''),
       ARRAY[e.id],
       l2_normalize((SELECT array_agg(random() - 0.5) FROM generate_series(1, 512) WHERE e.id IS NOT NULL)::vector),
       %(model)s, false
FROM entities e
JOIN entity_kinds k ON k.key = e.kind
WHERE e.owner_sub = %(owner)s AND e.merged_into_id IS NULL AND k.rag
ON CONFLICT (owner_sub, source_kind, source_key) DO NOTHING
