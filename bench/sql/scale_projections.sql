-- Entity projections for one owner of the bench seed, set-based (as the admin), from the session's
-- scale_vectors: the texts of scale_projection_texts with the offline model's embeddings of them (the
-- default), or random unit vectors (`--random-vectors`: the hardest case for HNSW, no near neighbours; what
-- this bench loaded before 2026-12-01), under the offline model's name.
INSERT INTO memory_projections (owner_sub, source_kind, source_key, text, entity_ids, embedding, embedding_model,
                                embedding_pending)
SELECT %(owner)s, 'entity', v.entity_id::text, v.text, ARRAY[v.entity_id], v.embedding, %(model)s, false
FROM scale_vectors v
ON CONFLICT (owner_sub, source_kind, source_key) DO NOTHING
