SELECT id::text AS id, owner_sub AS owner, predicate, status, subject_id::text AS subject,
       object_entity_id::text AS object, valid_from, valid_to, recorded_at, superseded_at
FROM facts WHERE object_kind = 'entity' AND believed
