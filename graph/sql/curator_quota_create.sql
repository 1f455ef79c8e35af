-- The owner's token bucket on first use: full, at %(capacity)s. A bucket that exists is left alone.
INSERT INTO curator_quota (level, updated_at) VALUES (%(capacity)s, clock_timestamp())
ON CONFLICT (owner_sub) DO NOTHING
