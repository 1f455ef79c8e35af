// Outgoing REL edges of the frontier ($ids), as of valid time $v (microseconds); believed now when
// $r is null, else as known at system time $r (wm_during/wm_known: the one as-of condition, the SQL
// functions of graph/sql/functions/; an edge exists only for a believed row, and is open exactly
// while it is active); only $predicates when given. One directed hop: the
// start vertex by its indexed id, the edge by start_id (see shared notes: never an undirected pattern).
// columns: from_id, fact_id, predicate, scope, valid_from, valid_to, recorded_at, superseded_at, to_id, to_ref, to_kind, to_name, to_status, to_merged_into
UNWIND $ids AS fid
MATCH (a:Entity) WHERE a.id = fid
MATCH (a)-[r:REL]->(b:Entity)
WHERE public.wm_during(r.valid_from, r.valid_to, $v) AND public.wm_known(r.recorded_at, r.superseded_at, $r)
  AND ($predicates IS NULL OR r.predicate IN $predicates)
RETURN a.id, r.id, r.predicate, r.scope, r.valid_from, r.valid_to, r.recorded_at, r.superseded_at,
       b.id, b.ref, b.kind, b.name, b.status, b.merged_into
