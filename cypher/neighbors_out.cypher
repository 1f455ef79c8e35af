// Outgoing REL edges of the frontier ($ids), as of valid time $v (microseconds); believed now when
// $r is null, else as known at system time $r; only $predicates when given. One directed hop: the
// start vertex by its indexed id, the edge by start_id (see shared notes: never an undirected pattern).
// columns: from_id, fact_id, predicate, scope, valid_from, valid_to, recorded_at, superseded_at, to_id, to_ref, to_kind, to_name, to_status, to_merged_into
UNWIND $ids AS fid
MATCH (a:Entity) WHERE a.id = fid
MATCH (a)-[r:REL]->(b:Entity)
WHERE r.valid_from <= $v AND (r.valid_to IS NULL OR r.valid_to > $v)
  AND (($r IS NULL AND r.superseded_at IS NULL AND r.status = 'active')
       OR ($r IS NOT NULL AND r.recorded_at <= $r AND (r.superseded_at IS NULL OR r.superseded_at > $r)))
  AND ($predicates IS NULL OR r.predicate IN $predicates)
RETURN a.id, r.id, r.predicate, r.scope, r.valid_from, r.valid_to, r.recorded_at, r.superseded_at,
       b.id, b.ref, b.kind, b.name, b.status, b.merged_into
