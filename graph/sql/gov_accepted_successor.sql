-- The successor of an accepted pending row: the believed row that now says what it said over its period
-- (inserted by the accept, or already there when the accept changed nothing), the latest first.
-- Set once: a successor already named stays (the 0018 trigger refuses a change). Columns: id.
-- Index: facts_current (owner_sub, subject_id, predicate).
UPDATE facts p SET superseded_by_fact_id = (
    SELECT f.id FROM facts f
    WHERE f.owner_sub = p.owner_sub AND f.subject_id = p.subject_id AND f.predicate = p.predicate
      AND f.scope_entity_id IS NOT DISTINCT FROM p.scope_entity_id AND wm_believed(f.superseded_at) AND f.believed
      AND (f.object_kind, f.object_value, f.object_entity_id)
          IS NOT DISTINCT FROM (p.object_kind, p.object_value, p.object_entity_id)
      AND f.valid && p.valid
    ORDER BY f.recorded_at DESC, f.valid_from
    LIMIT 1)
WHERE p.owner_sub = wm_owner() AND p.id = %(id)s AND p.superseded_at IS NOT NULL
  AND p.superseded_by_fact_id IS NULL
RETURNING p.id, p.superseded_by_fact_id
