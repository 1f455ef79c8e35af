-- bench.search_scale: one row per projection to load (entity id, text, embedding as pgvector text).
COPY scale_vectors (entity_id, text, embedding) FROM STDIN
