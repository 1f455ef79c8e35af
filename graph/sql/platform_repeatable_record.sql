INSERT INTO schema_repeatables (name, checksum) VALUES (%s, %s)
ON CONFLICT (name) DO UPDATE SET checksum = excluded.checksum, applied_at = clock_timestamp()
