-- Store a batch's embeddings in one statement (ids, texts and embeddings: parallel arrays, the
-- vectors in pgvector's binary form: graph.finder.vector_param.vectors_param), each unless its row's text
-- changed since it was read (then it stays pending for the next run) or it already holds this model's
-- vector (an import writing what the finder's thread embedded meanwhile: a second write would cost a
-- second HNSW insert for nothing).
-- `p.id = ANY(...)` beside the join: the batch's rows are then fetched by primary key. Without it the
-- planner, with statistics that lag an import, hashed every projection of the owner for each batch (9 ms
-- a batch at 10,000 rows, growing with the owner).
UPDATE memory_projections p
SET embedding = v.embedding, embedding_model = %(model)s, embedding_pending = false, embedding_error = NULL
FROM unnest(%(ids)s::uuid[], %(texts)s::text[], %(embeddings)b::vector[]) AS v(id, text, embedding)
WHERE p.owner_sub = wm_owner() AND p.id = ANY(%(ids)s::uuid[]) AND p.id = v.id AND p.text = v.text
  AND (p.embedding_pending OR p.embedding_model IS DISTINCT FROM %(model)s)
