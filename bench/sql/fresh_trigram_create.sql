-- bench.fresh_owner --trigram-ab: migration 0037's indexes back (the same definitions).
CREATE INDEX IF NOT EXISTS entities_owner_name_gist ON entities USING gist (owner_sub, canonical_name gist_trgm_ops);
CREATE INDEX IF NOT EXISTS entity_aliases_owner_norm_gist ON entity_aliases USING gist (owner_sub, alias_norm gist_trgm_ops)
    WHERE superseded_at IS NULL;
