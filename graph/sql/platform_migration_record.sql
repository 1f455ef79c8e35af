INSERT INTO schema_migrations (version, name, checksum) VALUES (%s, %s, %s)
