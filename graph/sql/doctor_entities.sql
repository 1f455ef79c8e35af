SELECT id::text AS id, owner_sub AS owner, ref, kind, status, canonical_name AS name,
       merged_into_id::text AS merged_into
FROM entities
