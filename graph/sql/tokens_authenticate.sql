SELECT owner_sub, kind, name, can_import, can_integrate, revoked_at
FROM api_tokens
WHERE token_hash = %(token_hash)s
