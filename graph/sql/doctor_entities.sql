SELECT id::text AS id, owner_sub AS owner, ref, kind, status FROM entities
