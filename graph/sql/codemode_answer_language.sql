-- Every believed `answer_language` of the owner's person entity (wm_owner_person, graph/sql/functions/: person:me,
-- or else the one person with the believed alias "me") valid at %(at)s, scoped or not: the AGENTS.md export
-- picks the one of the repo's scope chain (a repo can be English while the owner answers in German).
-- Columns: the agent fact row.
SELECT f.id, f.subject_id AS about_id, s.ref AS subject_ref, f.predicate, f.functional, f.object_kind,
       f.object_value, NULL::text AS object_ref, f.valid_from, f.valid_to, f.recorded_at, f.superseded_at,
       f.observed_at, f.status, f.source, f.confidence, sc.ref AS scope_ref, f.priority, f.memory_type,
       f.reason, f.evidence, f.supersedes_fact_id, f.run_id
FROM facts f
JOIN entities s ON s.id = f.subject_id
LEFT JOIN entities sc ON sc.id = f.scope_entity_id
WHERE f.owner_sub = wm_owner() AND f.subject_id = wm_owner_person(%(at)s) AND f.predicate = 'answer_language'
  AND wm_believed(f.superseded_at) AND f.status = 'active' AND f.valid @> %(at)s::timestamptz
ORDER BY f.recorded_at, f.id
