SELECT owner, entities, runs, seeded_at FROM bench.meta ORDER BY owner
