-- Windowed events in the causal log: world events whose type's registry class is 'windowed'
-- (e.g. code mode's build and test results) that nothing depends on are rolled up and then pruned row by
-- row, with their AGE vertex and the CAUSED edge into it. Observations (observed_events, 0043) go by
-- partition instead; world_events cannot be partitioned (its id is a foreign-key target, see 0043).

-- Pruning a leaf event removes its mirror too: the Event vertex and the one CAUSED edge into it (a leaf
-- causes nothing, so no edge leaves it). Only wm_retention_prune_events (graph/sql/functions/), owned by worldmem_owner, deletes.
GRANT SELECT, DELETE ON worldgraph."Event", worldgraph."CAUSED" TO worldmem_owner;
GRANT USAGE ON SCHEMA worldgraph TO worldmem_owner;

SET LOCAL ROLE worldmem_owner;

-- The windowed world events nothing depends on: no fact or event names them as cause, no merge or
-- dismissal records them, and they are not consequential actions (an intent or expected effect: an agent
-- action with a reason is permanent). security_invoker: the owner policy applies.
CREATE VIEW retention_unheld_events WITH (security_invoker = true) AS
SELECT w.*
FROM world_events w
JOIN event_types t ON t.key = w.event_type AND t.retention_class = 'windowed'
WHERE w.intent IS NULL AND w.expected_effect IS NULL
  AND NOT EXISTS (SELECT 1 FROM facts f WHERE f.caused_by_event_id = w.id)
  AND NOT EXISTS (SELECT 1 FROM world_events c WHERE c.caused_by_event_id = w.id)
  AND NOT EXISTS (SELECT 1 FROM entity_merges m WHERE w.id IN (m.event_id, m.split_event_id))
  AND NOT EXISTS (SELECT 1 FROM merge_dismissals d WHERE d.event_id = w.id);
GRANT SELECT ON retention_unheld_events TO worldmem_app;
