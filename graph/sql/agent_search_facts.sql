-- Current beliefs whose literal value matches the query: all its words (full text, 'simple'
-- configuration; score at least 0.8) or, only when full text finds fewer than %(limit)s, a similar word
-- sequence (trigram word similarity). At most %(pool)s candidates of each kind are scored, so a word
-- shared by thousands of values stays cheap (those are then a sample).
WITH words AS (
    SELECT id FROM facts
    WHERE owner_sub = wm_owner() AND superseded_at IS NULL AND status = 'active'
      AND value_tsv @@ plainto_tsquery('simple', %(query)s)
    LIMIT %(pool)s
), alike AS (
    SELECT id FROM facts
    WHERE owner_sub = wm_owner() AND superseded_at IS NULL AND status = 'active'
      AND lower(%(query)s) <%% value_text AND (SELECT count(*) FROM words) < %(limit)s
    LIMIT %(pool)s
), hits AS (
    SELECT id FROM words UNION SELECT id FROM alike
)
SELECT f.id, f.subject_id AS about_id, s.ref AS subject_ref, f.predicate, f.functional, f.object_kind,
       f.object_value, NULL::text AS object_ref, f.valid_from, f.valid_to, f.recorded_at, f.superseded_at,
       f.observed_at, f.status, f.source, f.confidence, sc.ref AS scope_ref, f.priority, f.memory_type,
       f.reason, f.evidence, f.supersedes_fact_id, f.run_id,
       greatest(word_similarity(lower(%(query)s), f.value_text),
                CASE WHEN f.value_tsv @@ plainto_tsquery('simple', %(query)s) THEN 0.8 ELSE 0 END)::float8
           AS score
FROM hits h
JOIN facts f ON f.id = h.id
JOIN entities s ON s.id = f.subject_id
LEFT JOIN entities sc ON sc.id = f.scope_entity_id
ORDER BY score DESC, f.recorded_at DESC, f.id
LIMIT %(limit)s
