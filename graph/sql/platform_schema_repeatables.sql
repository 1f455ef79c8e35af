CREATE TABLE IF NOT EXISTS schema_repeatables (
    name       text PRIMARY KEY,
    checksum   text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT clock_timestamp()
)
