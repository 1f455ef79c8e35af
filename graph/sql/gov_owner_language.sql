-- The owner's answer language for chat-ready texts: the believed, unscoped `answer_language` of the
-- owner's person entity (wm_owner_person, graph/sql/functions/: person:me, else the one person with the believed
-- alias "me"), valid at %(at)s. Columns: language (the JSON value as text).
-- Index: facts_current (owner_sub, subject_id, predicate).
SELECT f.object_value #>> '{}' AS language
FROM facts f
WHERE f.owner_sub = wm_owner() AND f.subject_id = wm_owner_person(%(at)s) AND f.predicate = 'answer_language'
  AND wm_believed(f.superseded_at) AND f.status = 'active' AND f.scope_entity_id IS NULL
  AND wm_during(f.valid_from, f.valid_to, %(at)s)
ORDER BY f.recorded_at DESC
LIMIT 1
