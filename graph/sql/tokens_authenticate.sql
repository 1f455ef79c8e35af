SELECT owner_sub, can_import, can_integrate
FROM api_tokens
WHERE token_hash = %(token_hash)s AND revoked_at IS NULL
