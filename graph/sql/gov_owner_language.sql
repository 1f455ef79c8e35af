-- The owner's answer language for chat-ready texts: the believed, unscoped `answer_language` of the
-- owner's person entity (ref person:me, or a person with the believed alias "me"), valid at %(at)s.
-- Columns: language (the JSON value as text). Index: facts_current (owner_sub, subject_id, predicate).
WITH me AS (
    SELECT id FROM entities WHERE owner_sub = wm_owner() AND ref = 'person:me'
    UNION
    SELECT a.entity_id FROM entity_aliases a JOIN entities e ON e.id = a.entity_id
    WHERE a.owner_sub = wm_owner() AND a.alias_norm = 'me' AND a.superseded_at IS NULL AND e.kind = 'person'
      AND a.valid_from <= %(at)s AND (a.valid_to IS NULL OR a.valid_to > %(at)s)
)
SELECT f.object_value #>> '{}' AS language
FROM facts f
WHERE f.owner_sub = wm_owner() AND f.subject_id IN (SELECT id FROM me) AND f.predicate = 'answer_language'
  AND f.superseded_at IS NULL AND f.status = 'active' AND f.scope_entity_id IS NULL
  AND f.valid_from <= %(at)s AND (f.valid_to IS NULL OR f.valid_to > %(at)s)
ORDER BY f.recorded_at DESC
LIMIT 1
