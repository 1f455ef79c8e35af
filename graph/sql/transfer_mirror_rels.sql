-- transfer_mirror_rels: the owner's relationship fact rows that the graph mirrors as REL edges (those the
-- doctor compares: doctor_rels.sql). Columns: the facts' columns graph.age.mirror.rel_props reads.
SELECT id, predicate, status, subject_id, object_entity_id, scope_entity_id, valid_from, valid_to, recorded_at,
       superseded_at
FROM facts WHERE object_kind = 'entity' AND believed ORDER BY recorded_at, id
