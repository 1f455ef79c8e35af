SELECT id, owner_sub, kind, name, can_import, can_integrate, created_at, revoked_at
FROM api_tokens
WHERE %(owner_sub)s::text IS NULL OR owner_sub = %(owner_sub)s
ORDER BY created_at, id
