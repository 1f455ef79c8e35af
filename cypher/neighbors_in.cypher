// Incoming REL edges of the frontier ($ids): the mirror image of neighbors_out (edge by end_id).
// columns: from_id, fact_id, predicate, scope, valid_from, valid_to, recorded_at, superseded_at, to_id, to_ref, to_kind, to_name, to_status, to_merged_into
UNWIND $ids AS fid
MATCH (a:Entity) WHERE a.id = fid
MATCH (a)<-[r:REL]-(b:Entity)
WHERE public.wm_during(r.valid_from, r.valid_to, $v) AND public.wm_known(r.recorded_at, r.superseded_at, $r)
  AND ($predicates IS NULL OR r.predicate IN $predicates)
RETURN a.id, r.id, r.predicate, r.scope, r.valid_from, r.valid_to, r.recorded_at, r.superseded_at,
       b.id, b.ref, b.kind, b.name, b.status, b.merged_into
