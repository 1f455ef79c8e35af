-- agent_search_facts for a search with a time range (%(from)s and/or %(to)s): current beliefs whose literal
-- value holds every word of the query (full text, 'simple' configuration), the %(k)s best by ts_rank, valid
-- during the range (only %(to)s: valid at any time before it). The range's start is the caller's and may
-- reach far back, so the words bound the rows (0040's (owner_sub, value_tsv) index), not the valid time as in
-- agent_search_facts. %(kind)s (NULL: any) filters the subject's kind.
-- Returns: the agent fact columns (FactView + subject_ref, functional), score
WITH q AS (SELECT plainto_tsquery('simple', %(query)s) AS tsq),
matches AS (
    SELECT f.id, ts_rank(f.value_tsv, q.tsq)::float8 AS score
    FROM facts f, q
    WHERE f.owner_sub = wm_owner() AND wm_believed(f.superseded_at) AND f.status = 'active'
      AND f.value_tsv @@ q.tsq
      AND (f.valid_to IS NULL OR f.valid_to > coalesce(%(from)s::timestamptz,
                                                 CASE WHEN %(to)s::timestamptz IS NULL THEN %(at)s::timestamptz END,
                                                 '-infinity'))
      AND (%(to)s::timestamptz IS NULL OR f.valid_from < %(to)s::timestamptz)
    ORDER BY score DESC, f.id
    LIMIT %(k)s
)
SELECT f.id, f.subject_id AS about_id, s.ref AS subject_ref, f.predicate, f.functional, f.object_kind,
       f.object_value, NULL::text AS object_ref, f.valid_from, f.valid_to, f.recorded_at, f.superseded_at,
       f.observed_at, f.status, f.source, f.confidence, sc.ref AS scope_ref, f.priority, f.memory_type,
       f.reason, f.evidence, f.supersedes_fact_id, f.run_id, m.score
FROM matches m
JOIN facts f ON f.id = m.id
JOIN entities s ON s.id = f.subject_id
LEFT JOIN entities sc ON sc.id = f.scope_entity_id
WHERE %(kind)s::text IS NULL OR s.kind = %(kind)s::text
ORDER BY m.score DESC, f.id
