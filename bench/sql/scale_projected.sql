-- bench.search_scale: how many projections the measured owner has already (the load runs once per database).
-- Returns: n
SELECT count(*)::int AS n FROM memory_projections WHERE owner_sub = %(owner)s
