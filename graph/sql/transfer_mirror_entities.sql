-- transfer_mirror_entities: the owner's entities as graph.age.mirror stores their vertices.
-- Columns: id, ref, kind, name, status, merged_into.
SELECT id::text AS id, ref, kind, canonical_name AS name, status, merged_into_id::text AS merged_into
FROM entities ORDER BY created_at, id
