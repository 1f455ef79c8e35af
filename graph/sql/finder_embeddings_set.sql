-- Store a batch's embeddings in one statement (%(ids)s, %(texts)s and %(embeddings)s: parallel arrays, the
-- vectors in pgvector's text form), each unless its row's text changed since it was read (then it stays
-- pending for the next run) or it already holds this model's vector (an import writing what the finder's
-- thread embedded meanwhile: a second write would cost a second HNSW insert for nothing).
UPDATE memory_projections p
SET embedding = v.embedding::vector, embedding_model = %(model)s, embedding_pending = false, embedding_error = NULL
FROM unnest(%(ids)s::uuid[], %(texts)s::text[], %(embeddings)s::text[]) AS v(id, text, embedding)
WHERE p.owner_sub = wm_owner() AND p.id = v.id AND p.text = v.text
  AND (p.embedding_pending OR p.embedding_model IS DISTINCT FROM %(model)s)
