-- The one as-of condition, and refs resolved as of a system time (issue 8: "as known at R means as
-- known at R, also across merges and splits").
--
-- Before this, "believed at system time R" was written three times (reads_state_known_at.sql, the two
-- neighbour Cypher queries, graph/ledger/timeline.py) and refs followed the *current* merged_into_id, so
-- stateAsKnownAt(pet:a, R before the merge) answered with the survivor's facts. Now:
--   wm_during(lo, hi, t)      t lies in the half-open [lo, hi), hi NULL = open. The one condition
--                             (a range containment, like facts.valid @> V).
--   wm_known(rec, sup, r)     a row recorded at rec and superseded at sup is believed at system time r;
--                             r NULL = now (sup IS NULL). Facts, aliases, merges and edges all use it.
--   wm_known(agtype...)       the same for Cypher (AGE passes agtype; times are epoch microseconds).
--   wm_survivor(id, r)        the entity `id` stood for at system time r (merges as of r; r NULL = now).
-- graph/ledger/timeline.py holds the Python twin (`during`, `known`), tested against these functions.
SET LOCAL ROLE worldmem_owner;

-- wm_survivor looks merges up by the merged entity at any system time (the old index held open ones).
CREATE INDEX entity_merges_merged ON entity_merges (owner_sub, merged_id, recorded_at);
-- Traversal: the entities merged into a frontier as of system time r.
CREATE INDEX entity_merges_into_all ON entity_merges (owner_sub, into_id, recorded_at);
-- Aliases as known at r: by name, over all system time (the unique index holds believed ones only).
CREATE INDEX entity_aliases_norm_history ON entity_aliases (owner_sub, alias_norm, recorded_at);
