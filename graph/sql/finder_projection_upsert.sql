-- One projection, by (owner, source_kind, source_key). A new or changed text (or entity ids) marks the row
-- pending for the reconciler; the old embedding stays until the new one is written, so search keeps
-- finding the row meanwhile. An unchanged row is not touched.
-- Returns: id, embedding_pending
INSERT INTO memory_projections AS p (source_kind, source_key, text, entity_ids, valid_from, valid_to,
                                     importance, retention_class)
VALUES (%(source_kind)s, %(source_key)s, %(text)s, %(entity_ids)s::uuid[], %(valid_from)s, %(valid_to)s,
        %(importance)s, %(retention_class)s)
ON CONFLICT (owner_sub, source_kind, source_key) DO UPDATE
SET text = EXCLUDED.text, entity_ids = EXCLUDED.entity_ids, valid_from = EXCLUDED.valid_from,
    valid_to = EXCLUDED.valid_to, importance = EXCLUDED.importance, retention_class = EXCLUDED.retention_class,
    embedding_pending = p.embedding_pending OR p.text IS DISTINCT FROM EXCLUDED.text,
    updated_at = clock_timestamp()
WHERE (p.text, p.entity_ids, p.valid_from, p.valid_to, p.importance, p.retention_class)
      IS DISTINCT FROM (EXCLUDED.text, EXCLUDED.entity_ids, EXCLUDED.valid_from, EXCLUDED.valid_to,
                        EXCLUDED.importance, EXCLUDED.retention_class)
RETURNING p.id, p.embedding_pending
