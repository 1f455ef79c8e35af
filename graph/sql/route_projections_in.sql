-- route_projections_in: entity projections from route_projections_out, onto the owner's entities of the same ref
-- on this cluster (their new ids). Superuser connection; a projection already there stays as it is.
INSERT INTO memory_projections (owner_sub, source_kind, source_key, text, entity_ids, valid_from, valid_to,
                                importance, retention_class, embedding, embedding_model, embedding_pending,
                                embedding_error)
SELECT %(owner)s, 'entity', e.id::text, j ->> 'text', ARRAY[e.id], (j ->> 'valid_from')::timestamptz,
       (j ->> 'valid_to')::timestamptz, (j ->> 'importance')::real, j ->> 'retention_class',
       (j ->> 'embedding')::vector, j ->> 'embedding_model', (j ->> 'embedding_pending')::boolean,
       j ->> 'embedding_error'
FROM jsonb_array_elements(%(rows)s::jsonb) j
JOIN entities e ON e.owner_sub = %(owner)s AND e.ref = j ->> 'ref'
ON CONFLICT (owner_sub, source_kind, source_key) DO NOTHING
