ANALYZE bench.ent, bench.ev, entities, world_events
