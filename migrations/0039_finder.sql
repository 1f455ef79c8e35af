-- The finder: which entity kinds are embedded, and the indexes that make every search list a
-- real top-k over all of an owner's rows.
SET LOCAL ROLE worldmem_owner;

-- An entity of a kind that says rag gets a projection (its name, kind, aliases and current literal values
-- as one text, embedded by the reconciler). Facts, aliases and sensor readings are never embedded one by
-- one: they are found structurally. A registry flag like `privileged`: set by migrations and the admin,
-- never by the app (0013 grants the app UPDATE on name and description only).
ALTER TABLE entity_kinds ADD COLUMN rag boolean NOT NULL DEFAULT false;
UPDATE entity_kinds SET rag = true
WHERE key IN ('person', 'pet', 'place', 'organization', 'project', 'repo', 'issue', 'device', 'task',
              'document', 'topic', 'thing', 'policy', 'preference');

-- One HNSW index per embedding dimension a supported model produces (the column has no fixed dimension):
-- 512 the offline default (USE multilingual v3), 384 / 768 / 1024 / 1536 the common sizes of an
-- OpenAI-compatible endpoint (MiniLM, nomic/e5-base, bge-m3/mxbai, text-embedding-3-small). A query names
-- the same expression and predicate, so the planner can use the index; rows of another dimension are
-- simply not in it. A model of another size still works (exact scan over the owner's rows).
CREATE INDEX memory_projections_hnsw_384 ON memory_projections
    USING hnsw ((embedding::vector(384)) vector_cosine_ops) WHERE vector_dims(embedding) = 384;
CREATE INDEX memory_projections_hnsw_512 ON memory_projections
    USING hnsw ((embedding::vector(512)) vector_cosine_ops) WHERE vector_dims(embedding) = 512;
CREATE INDEX memory_projections_hnsw_768 ON memory_projections
    USING hnsw ((embedding::vector(768)) vector_cosine_ops) WHERE vector_dims(embedding) = 768;
CREATE INDEX memory_projections_hnsw_1024 ON memory_projections
    USING hnsw ((embedding::vector(1024)) vector_cosine_ops) WHERE vector_dims(embedding) = 1024;
CREATE INDEX memory_projections_hnsw_1536 ON memory_projections
    USING hnsw ((embedding::vector(1536)) vector_cosine_ops) WHERE vector_dims(embedding) = 1536;
