-- transfer_clock: after an import, the owner's clock stands at the latest system time the imported rows
-- carry, so the next write's recorded_at comes after every one of them (graph/sync/store.py system_time).
UPDATE owner_clock SET last_recorded_at = greatest(
    last_recorded_at,
    (SELECT max(greatest(recorded_at, superseded_at)) FROM facts),
    (SELECT max(greatest(recorded_at, superseded_at)) FROM entity_aliases),
    (SELECT max(greatest(recorded_at, superseded_at)) FROM entity_descriptions),
    (SELECT max(recorded_at) FROM world_events),
    (SELECT max(greatest(recorded_at, split_at)) FROM entity_merges))
WHERE owner_sub = wm_owner()
