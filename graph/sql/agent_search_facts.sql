-- Current beliefs whose literal value matches the query: all its words (full text, 'simple'
-- configuration) or a similar word sequence (trigram word similarity). Full-text hits score at least 0.8.
SELECT f.id, f.subject_id AS about_id, s.ref AS subject_ref, f.predicate, f.functional, f.object_kind,
       f.object_value, NULL::text AS object_ref, f.valid_from, f.valid_to, f.recorded_at, f.superseded_at,
       f.observed_at, f.status, f.source, f.confidence, sc.ref AS scope_ref, f.priority, f.memory_type,
       f.reason, f.evidence, f.supersedes_fact_id, f.run_id,
       greatest(word_similarity(lower(%(query)s), f.value_text),
                CASE WHEN f.value_tsv @@ plainto_tsquery('simple', %(query)s) THEN 0.8 ELSE 0 END)::float8
           AS score
FROM facts f
JOIN entities s ON s.id = f.subject_id
LEFT JOIN entities sc ON sc.id = f.scope_entity_id
WHERE f.owner_sub = wm_owner() AND f.superseded_at IS NULL AND f.status = 'active'
  AND (f.value_tsv @@ plainto_tsquery('simple', %(query)s) OR lower(%(query)s) <%% f.value_text)
ORDER BY score DESC, f.recorded_at DESC, f.id
LIMIT %(limit)s
