-- Store one row's embedding, unless its text changed since it was read (then it stays pending).
UPDATE memory_projections
SET embedding = %(embedding)s::vector, embedding_model = %(model)s, embedding_pending = false,
    embedding_error = NULL
WHERE owner_sub = wm_owner() AND id = %(id)s AND text = %(text)s
