INSERT INTO owner_clock (last_recorded_at) VALUES (NULL)
ON CONFLICT (owner_sub) DO NOTHING
