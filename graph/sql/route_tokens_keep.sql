-- route_tokens_keep: the owner's tokens, kept aside while the owner's rows leave this cluster (the directory
-- keeps them: a moved owner's token still finds it); restored by route_tokens_restore in the same transaction
CREATE TEMP TABLE kept_tokens ON COMMIT DROP AS SELECT * FROM api_tokens WHERE owner_sub = %(owner)s
