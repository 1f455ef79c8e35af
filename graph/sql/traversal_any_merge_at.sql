-- Whether this owner had merged anything by system time %(system_time)s: if not, a traversal as known
-- then needs no survivor of any target (a vertex's status is today's, so it cannot tell).
SELECT EXISTS (SELECT 1 FROM entity_merges WHERE owner_sub = wm_owner()
               AND recorded_at <= %(system_time)s::timestamptz) AS merged
