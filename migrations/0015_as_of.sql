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

-- Each parameter is used once, so PostgreSQL inlines these into the calling query (also inside cypher()):
-- a parameter used twice with an expensive argument (an agtype property access has COST 10, 0006) blocks
-- inlining, and a call per edge through the SQL-function executor cost ~0.4 ms per hop query (8 ids).
CREATE FUNCTION wm_during(lo timestamptz, hi timestamptz, t timestamptz) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN tstzrange(lo, hi, '[)') @> t;

-- r NULL = now: only a row still open contains +infinity.
CREATE FUNCTION wm_known(recorded_at timestamptz, superseded_at timestamptz, r timestamptz) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN wm_during(recorded_at, superseded_at, coalesce(r, 'infinity'::timestamptz));

-- Edge and vertex times are integer microseconds since the epoch (graph/age/mirror.py); a missing
-- property (SQL NULL) and a stored null (agtype null, which casts to a NULL bigint) are both NULL.
-- STABLE, not IMMUTABLE: timestamptz + interval is STABLE, and a function declared less volatile than its
-- body is never inlined.
CREATE FUNCTION wm_micros(t ag_catalog.agtype) RETURNS timestamptz
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN timestamptz 'epoch' + t::bigint * interval '1 microsecond';

CREATE FUNCTION wm_during(lo ag_catalog.agtype, hi ag_catalog.agtype, t ag_catalog.agtype) RETURNS boolean
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN wm_during(wm_micros(lo), wm_micros(hi), wm_micros(t));

CREATE FUNCTION wm_known(recorded_at ag_catalog.agtype, superseded_at ag_catalog.agtype, r ag_catalog.agtype)
    RETURNS boolean
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN wm_known(wm_micros(recorded_at), wm_micros(superseded_at), wm_micros(r));

-- Merges carry their own system time ([recorded_at, split_at) in entity_merges). Now (r NULL) the chain is
-- entities.merged_into_id, which merge and split keep equal to the open merges and which the graph
-- mirror, doctor and the hot read paths use; a chain is at most 16 hops (as before).
CREATE FUNCTION wm_survivor(entity uuid, r timestamptz) RETURNS uuid
    LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $fn$
DECLARE
    cur uuid := entity;
    next uuid;
BEGIN
    FOR hop IN 1..16 LOOP
        IF r IS NULL THEN
            SELECT e.merged_into_id INTO next FROM entities e WHERE e.owner_sub = wm_owner() AND e.id = cur;
        ELSE
            SELECT m.into_id INTO next
            FROM entity_merges m
            WHERE m.owner_sub = wm_owner() AND m.merged_id = cur AND wm_known(m.recorded_at, m.split_at, r)
            ORDER BY m.recorded_at DESC
            LIMIT 1;
        END IF;
        EXIT WHEN next IS NULL;
        cur := next;
    END LOOP;
    RETURN cur;
END
$fn$;

-- wm_survivor looks merges up by the merged entity at any system time (the old index held open ones).
CREATE INDEX entity_merges_merged ON entity_merges (owner_sub, merged_id, recorded_at);
-- Traversal: the entities merged into a frontier as of system time r.
CREATE INDEX entity_merges_into_all ON entity_merges (owner_sub, into_id, recorded_at);
-- Aliases as known at r: by name, over all system time (the unique index holds believed ones only).
CREATE INDEX entity_aliases_norm_history ON entity_aliases (owner_sub, alias_norm, recorded_at);

GRANT EXECUTE ON FUNCTION wm_during(timestamptz, timestamptz, timestamptz),
    wm_known(timestamptz, timestamptz, timestamptz), wm_micros(ag_catalog.agtype),
    wm_during(ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype),
    wm_known(ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype), wm_survivor(uuid, timestamptz)
    TO worldmem_app;
