-- Record that two entities are not the same (ordered pair, so either order is one row); a pair already
-- dismissed stays as it is (returns no row).
INSERT INTO merge_dismissals (low_id, high_id, reason, recorded_at, run_id, event_id)
VALUES (least(%(a)s::uuid, %(b)s::uuid), greatest(%(a)s::uuid, %(b)s::uuid), %(reason)s, %(at)s, %(run_id)s,
        %(event_id)s)
ON CONFLICT (owner_sub, low_id, high_id) DO NOTHING
RETURNING id
