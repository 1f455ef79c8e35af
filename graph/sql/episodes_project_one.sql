-- One episode's projection with its embedding when the import computed it (%(embedding)s NULL: pending, the
-- reconciler embeds it); sent once per new turn in one pipeline (executemany), so an import writes each row
-- once and never updates it for its embedding (an update re-indexes all of the row's text indexes).
INSERT INTO memory_projections (source_kind, source_key, text, valid_from, valid_to, retention_class, embedding,
                                embedding_model, embedding_pending)
VALUES ('episode', %(key)s, %(text)s, %(at)s, %(at)s + interval '1 second', 'episodic', %(embedding)s::vector,
        %(model)s, %(embedding)s IS NULL)
ON CONFLICT (owner_sub, source_kind, source_key) DO NOTHING
