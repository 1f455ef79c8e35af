WITH clock AS (
    INSERT INTO owner_clock (owner_sub, last_recorded_at) VALUES (%(owner)s, %(t0)s)
)
INSERT INTO bench.meta (owner, entities, runs, seeded_at) VALUES (%(owner)s, %(n)s, %(runs)s, clock_timestamp())
