-- bench.fresh_owner --trigram-ab: the scratch database without migration 0037's indexes.
DROP INDEX IF EXISTS entities_owner_name_gist;
DROP INDEX IF EXISTS entity_aliases_owner_norm_gist;
