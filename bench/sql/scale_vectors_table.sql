-- bench.search_scale: the texts and vectors to load, filled by COPY (scale_vectors_copy) on this session only.
CREATE TEMP TABLE scale_vectors (entity_id uuid PRIMARY KEY, text text NOT NULL, embedding vector NOT NULL)
