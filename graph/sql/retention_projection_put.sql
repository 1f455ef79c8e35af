-- retention_projection_put: the rollup's text in memory_projections (source_kind 'rollup', windowed),
-- pending embedding: the finder's reconciler embeds it. Columns: id.
INSERT INTO memory_projections (source_kind, source_key, text, entity_ids, valid_from, valid_to, importance,
                                retention_class, embedding_pending)
VALUES ('rollup', %(source_key)s, %(text)s, %(entity_ids)s, %(valid_from)s, %(valid_to)s, %(importance)s,
        'windowed', true)
ON CONFLICT (owner_sub, source_kind, source_key) DO UPDATE
SET text = EXCLUDED.text, entity_ids = EXCLUDED.entity_ids, valid_from = EXCLUDED.valid_from,
    valid_to = EXCLUDED.valid_to, embedding_pending = true, embedding_error = NULL, updated_at = clock_timestamp()
RETURNING id
