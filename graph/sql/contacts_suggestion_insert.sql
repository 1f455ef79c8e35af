-- Record that two persons may be one (ordered pair: either order is one row; a pair already suggested
-- keeps its first signal and returns no row).
INSERT INTO contact_merge_suggestions (low_id, high_id, signal, detail, recorded_at, run_id)
VALUES (least(%(a)s::uuid, %(b)s::uuid), greatest(%(a)s::uuid, %(b)s::uuid), %(signal)s, %(detail)s, %(at)s,
        %(run_id)s)
ON CONFLICT (owner_sub, low_id, high_id) DO NOTHING
RETURNING id
