-- Current relationships pointing AT an entity, by one index that holds the owner too.
-- The context builder runs agent_facts_about with generic plans (context_generic_plans.sql), and a generic
-- plan cannot know how selective `owner_sub = wm_owner()` is (owner_sub has STATISTICS 0, migration 0036):
-- for the incoming branch it ANDed the facts_object bitmap (object_entity_id = ANY(...), a few rows) with
-- facts_run's (owner_sub, run_id) bitmap, i.e. every row of the owner. EXPLAIN ANALYZE as worldmem_app,
-- one linked entity: 13 ms at 50k facts, 91 ms at 1M facts (worldContext p50 10 -> 56 ms). With this index
-- the same generic plan is one index scan: 0.5 ms / 0.4 ms. It mirrors facts_current (owner_sub,
-- subject_id, predicate) for the other direction; getEntity (custom plans) gets the same single scan.
CREATE INDEX facts_incoming_current ON facts (owner_sub, object_entity_id, predicate)
    WHERE superseded_at IS NULL AND object_entity_id IS NOT NULL;
