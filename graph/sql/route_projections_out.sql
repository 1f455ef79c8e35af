-- route_projections_out: the owner's entity projections (the finder's texts and embeddings) with the entity's
-- ref instead of its id, which an import renews (graph/routing/projections.py). Superuser connection.
-- Columns: r (one JSON object per projection)
SELECT jsonb_build_object('ref', e.ref, 'text', p.text, 'valid_from', p.valid_from, 'valid_to', p.valid_to,
           'importance', p.importance, 'retention_class', p.retention_class, 'embedding', p.embedding::text,
           'embedding_model', p.embedding_model, 'embedding_pending', p.embedding_pending,
           'embedding_error', p.embedding_error) AS r
FROM memory_projections p
JOIN entities e ON e.owner_sub = p.owner_sub AND e.id::text = p.source_key
WHERE p.owner_sub = %(owner)s AND p.source_kind = 'entity'
