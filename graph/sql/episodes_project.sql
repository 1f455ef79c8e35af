-- Episodes as finder projections in one statement (source_kind 'episode', source_key the turn's id, retention
-- class 'episodic'): found by words at once, embedded by the reconciler. Valid for the second it was said, so
-- a time range finds the episodes said during it. A turn is never changed, so an existing row stays.
-- %(rows)s: a json array of {key, text, at}.
-- Returns: id, source_key (of the rows written now, for storing their vectors)
INSERT INTO memory_projections (source_kind, source_key, text, valid_from, valid_to, retention_class)
SELECT 'episode', p.key, p.text, p.at, p.at + interval '1 second', 'episodic'
FROM jsonb_to_recordset(%(rows)s::jsonb) AS p(key text, text text, at timestamptz)
ON CONFLICT (owner_sub, source_kind, source_key) DO NOTHING
RETURNING id, source_key
