-- bench.search_scale --reproject: the bench owner's projections, deleted before they are loaded again.
DELETE FROM memory_projections WHERE owner_sub = %(owner)s
