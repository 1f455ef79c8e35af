-- route_mark_moving: the owner is being copied to %(to)s; it stays on %(at)s (a row is made for an owner on the
-- default cluster). A move already under way to the same cluster is taken over (a rerun after a crash).
INSERT INTO owner_routes AS r (routed_owner, cluster, moving_to, moving_since)
VALUES (%(owner)s, %(at)s, %(to)s, clock_timestamp())
ON CONFLICT (routed_owner) DO UPDATE SET moving_to = EXCLUDED.moving_to, moving_since = coalesce(r.moving_since, EXCLUDED.moving_since),
    changed_at = clock_timestamp()
    WHERE r.cluster = EXCLUDED.cluster AND (r.moving_to IS NULL OR r.moving_to = EXCLUDED.moving_to)
RETURNING moving_since
