// The first level of a traversal from the ref $ref in one query (graph/sql/traversal_first.sql runs it
// inside one statement with the ref's resolution): the frontier is public.wm_frontier($ref, $r)
// (graph/sql/functions/: the origin as known at $r, then the entities merged into it), then neighbors_out's
// and neighbors_in's hops of it (only those with $out / $incoming true), the same conditions: as of valid time
// $v (microseconds), believed now when $r is null, else as known at system time $r (wm_during/wm_known,
// graph/sql/functions/), only $predicates when given. Directed hops only, the start vertex by its indexed id (the function's list is a
// value computed once, an index condition), never an undirected pattern.
// columns: dir, from_id, fact_id, predicate, scope, valid_from, valid_to, recorded_at, superseded_at, to_id, to_ref, to_kind, to_name, to_status, to_merged_into
UNWIND public.wm_frontier($ref, $r) AS fid
MATCH (a:Entity) WHERE a.id = fid
MATCH (a)-[r:REL]->(b:Entity)
WHERE $out AND public.wm_during(r.valid_from, r.valid_to, $v) AND public.wm_known(r.recorded_at, r.superseded_at, $r)
  AND ($predicates IS NULL OR r.predicate IN $predicates)
RETURN 'out' AS dir, a.id AS from_id, r.id AS fact_id, r.predicate AS predicate, r.scope AS scope,
       r.valid_from AS valid_from, r.valid_to AS valid_to, r.recorded_at AS recorded_at,
       r.superseded_at AS superseded_at, b.id AS to_id, b.ref AS to_ref, b.kind AS to_kind, b.name AS to_name,
       b.status AS to_status, b.merged_into AS to_merged_into
UNION ALL
UNWIND public.wm_frontier($ref, $r) AS fid
MATCH (a:Entity) WHERE a.id = fid
MATCH (a)<-[r:REL]-(b:Entity)
WHERE $incoming AND public.wm_during(r.valid_from, r.valid_to, $v) AND public.wm_known(r.recorded_at, r.superseded_at, $r)
  AND ($predicates IS NULL OR r.predicate IN $predicates)
RETURN 'in' AS dir, a.id AS from_id, r.id AS fact_id, r.predicate AS predicate, r.scope AS scope,
       r.valid_from AS valid_from, r.valid_to AS valid_to, r.recorded_at AS recorded_at,
       r.superseded_at AS superseded_at, b.id AS to_id, b.ref AS to_ref, b.kind AS to_kind, b.name AS to_name,
       b.status AS to_status, b.merged_into AS to_merged_into
