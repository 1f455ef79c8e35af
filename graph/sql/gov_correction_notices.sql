-- Values a chat's proposals replaced by a different value over an overlapping period: the new row and the
-- believed row closed at the same system time (merges and splits excluded). For a set predicate only a
-- retraction closes a member of another value, so a retraction and an assertion in one proposal (the
-- curator's "actually at 19:30", not 19:00) is a replacement too; adding a member alone stays silent.
-- Columns: graph/governance/review_rows.py CorrectionRow.
SELECT n.id, n.recorded_at, n.predicate, rt.name AS predicate_name,
       s.ref AS subject_ref, s.canonical_name AS subject_name,
       n.object_kind, n.object_value, ne.canonical_name AS object_name, ne.ref AS object_ref,
       o.id AS previous_id, o.object_kind AS previous_kind, o.object_value AS previous_value,
       oe.canonical_name AS previous_object_name, oe.ref AS previous_object_ref, o.source AS previous_source
FROM proposals p
JOIN facts n ON n.owner_sub = p.owner_sub AND n.run_id = p.run_id
JOIN facts o ON o.owner_sub = n.owner_sub AND o.subject_id = n.subject_id AND o.predicate = n.predicate
            AND o.scope_entity_id IS NOT DISTINCT FROM n.scope_entity_id
            AND o.superseded_at = n.recorded_at AND o.believed AND o.functional = n.functional AND o.valid && n.valid
JOIN entities s ON s.id = n.subject_id
JOIN relation_types rt ON rt.key = n.predicate
LEFT JOIN entities ne ON ne.id = n.object_entity_id
LEFT JOIN entities oe ON oe.id = o.object_entity_id
WHERE p.owner_sub = wm_owner() AND p.chat_id = %(chat_id)s AND p.recorded_at > %(since)s
  AND n.believed
  AND (n.object_kind, n.object_value, n.object_entity_id)
      IS DISTINCT FROM (o.object_kind, o.object_value, o.object_entity_id)
  AND NOT EXISTS (SELECT 1 FROM entity_merges m
                  WHERE m.owner_sub = p.owner_sub AND p.run_id IN (m.run_id, m.split_run_id))
ORDER BY n.recorded_at, n.valid_from, n.id, o.id
LIMIT %(limit)s
