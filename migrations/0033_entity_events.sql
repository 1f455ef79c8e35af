-- The explorer's event timeline reads an entity's events by target and by actor
-- (graph/sql/reads_entity_events.sql); without these it scans every event of the owner.
SET LOCAL ROLE worldmem_owner;

CREATE INDEX world_events_target ON world_events (owner_sub, target_entity_id, occurred_at DESC)
    WHERE target_entity_id IS NOT NULL;
CREATE INDEX world_events_actor ON world_events (owner_sub, actor_entity_id, occurred_at DESC)
    WHERE actor_entity_id IS NOT NULL;
