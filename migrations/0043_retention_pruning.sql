-- Pruning windowed data: observed events in monthly partitions that are dropped whole, and
-- windowed fact rows deleted only together with the rollup that replaces them.
--
-- Why a separate table for observed events instead of partitioning world_events: a partitioned table's
-- primary key must contain the partition key, so world_events(id) could no longer be the target of
-- facts.caused_by_event_id, world_events.caused_by_event_id, entity_merges.event_id and
-- merge_dismissals.event_id, and the AGE mirror's Event vertices and CAUSED edges would have to be pruned
-- with it. world_events stays the causal log (permanent: what caused what, governance); observations
-- (event types whose registry class is 'windowed') go to observed_events, which nothing references.
SET LOCAL ROLE worldmem_owner;

CREATE TABLE observed_events (
    id               uuid NOT NULL DEFAULT uuidv7(),
    owner_sub        text NOT NULL DEFAULT wm_owner(),
    event_type       text NOT NULL REFERENCES event_types (key),
    occurred_at      timestamptz NOT NULL,
    recorded_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    target_entity_id uuid REFERENCES entities (id),
    source           text NOT NULL,
    external_ref     text,
    payload          jsonb NOT NULL DEFAULT '{}'::jsonb,
    summary          text CHECK (length(summary) <= 2000),
    PRIMARY KEY (id, occurred_at)
) PARTITION BY RANGE (occurred_at);
CREATE INDEX observed_events_target ON observed_events (owner_sub, target_entity_id, occurred_at DESC);

CALL wm_owner_only('observed_events');  -- partitions get no owner_sub statistics either (wm_observed_partition)
-- Append-only for the app: partitions are created and dropped only by wm_observed_partition and
-- wm_observed_drop_month (graph/sql/functions/).
GRANT SELECT, INSERT ON observed_events TO worldmem_app;
GRANT SELECT ON observed_events TO worldmem_console;

-- The windowed fact rows nothing permanent holds on to: no non-windowed row links to them (a correction of
-- an observation), no suppression marker, no merge's list of moved rows. A view (security_invoker, so the
-- owner policy applies) rather than a function, so the planner turns the checks into anti-joins: as a
-- function called per row it took 60 us a row (bench.retention_bench).
CREATE VIEW retention_unheld_facts WITH (security_invoker = true) AS
SELECT f.*
FROM facts f
WHERE f.retention_class = 'windowed'
  AND NOT EXISTS (SELECT 1 FROM facts k WHERE k.supersedes_fact_id = f.id AND k.retention_class <> 'windowed')
  AND NOT EXISTS (SELECT 1 FROM facts k WHERE k.superseded_by_fact_id = f.id AND k.retention_class <> 'windowed')
  AND NOT EXISTS (SELECT 1 FROM facts k WHERE k.invalidated_by_fact_id = f.id AND k.retention_class <> 'windowed')
  AND NOT EXISTS (SELECT 1 FROM suppression_markers s WHERE s.fact_id = f.id)
  AND NOT EXISTS (SELECT 1 FROM entity_merge_moves m WHERE m.item = 'fact' AND m.old_id = f.id)
  AND NOT EXISTS (SELECT 1 FROM entity_merge_moves m WHERE m.item = 'fact' AND m.new_id = f.id);
GRANT SELECT ON retention_unheld_facts TO worldmem_app;

-- The time-range rule of 0021 for the new time columns.
CALL wm_constrain_time_ranges();
