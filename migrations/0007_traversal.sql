-- Indexes for traversal, causality and intent reads (graph/traversal.py, graph/causality.py,
-- graph/intent.py). Each one is used by a named query whose plan bench/run.py checks at scale.
-- Runs as the migrating superuser: AGE's label tables belong to it, the ledger to worldmem_owner.

-- Level-by-level traversal starts each hop with `UNWIND $ids AS x MATCH (a:Entity) WHERE a.id = x`.
-- AGE declares its UNWIND function to return 1000 rows. With agtype_access_operator at its default
-- COST 1 the planner then hashed a parallel sequential scan of every Entity row instead of probing
-- entity_id_prop once per id (measured at 100k entities, 30 ids: 194 ms vs 0.7 ms). 0006's COST 10
-- happens to tip the plan back; frontiers are small, so say so and keep the index plan either way.
ALTER FUNCTION ag_catalog.age_unnest(ag_catalog.agtype) ROWS 10;

-- Traversal follows merged entities to their survivor: "which entities were merged into these ids".
CREATE INDEX IF NOT EXISTS entities_merged_into ON entities (merged_into_id)
    WHERE merged_into_id IS NOT NULL;

-- effects_of(run_id): the events a proposal run recorded (correlation has its own index already).
CREATE INDEX IF NOT EXISTS world_events_run ON world_events (owner_sub, run_id)
    WHERE run_id IS NOT NULL;

-- The intent reconciler scans actions that state an expected effect and are not yet fulfilled.
CREATE INDEX IF NOT EXISTS world_events_open_intents ON world_events (owner_sub, occurred_at)
    WHERE expected_effect IS NOT NULL AND intent_outcome IS DISTINCT FROM 'fulfilled';

-- explain_change walks the supersedes chain both ways ("what replaced this row").
CREATE INDEX IF NOT EXISTS facts_supersedes ON facts (supersedes_fact_id)
    WHERE supersedes_fact_id IS NOT NULL;

-- An integration sync looks for the latest agent action on its target: world_events_target_time (0008).
-- Traversal and the causal walk join CAUSED/REL on start_id/end_id (indexed in 0004) and look vertices
-- up by our id property (indexed in 0004). Entity refs are resolved in SQL (entities_owner_ref), so the
-- label tables need nothing more: the bench shows index scans on every hop.
