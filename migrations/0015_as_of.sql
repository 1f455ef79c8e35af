-- Reads as known at a system time R: the indexes behind wm_known / wm_survivor (graph/sql/functions/), which
-- look merges and aliases up over all system time, not only the open ones.
SET LOCAL ROLE worldmem_owner;

-- wm_survivor looks merges up by the merged entity at any system time (the old index held open ones).
CREATE INDEX entity_merges_merged ON entity_merges (owner_sub, merged_id, recorded_at);
-- Traversal: the entities merged into a frontier as of system time r.
CREATE INDEX entity_merges_into_all ON entity_merges (owner_sub, into_id, recorded_at);
-- Aliases as known at r: by name, over all system time (the unique index holds believed ones only).
CREATE INDEX entity_aliases_norm_history ON entity_aliases (owner_sub, alias_norm, recorded_at);
