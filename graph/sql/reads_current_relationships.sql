-- reads_current_relationships: the owner's relationship graph as believed now and valid now, for the
-- global explorer's centrality (graph/reads/centrality.py). Columns: fact_id, predicate, and for both ends
-- (s_ = subject, o_ = object) id, ref, kind, name. Merged entities are left out (their rows were re-pointed
-- to the survivor by the merge). `predicates` NULL = all. At most `max_rows` + 1 rows: one more than the
-- cap tells the caller it stopped early.
SELECT f.id AS fact_id, f.predicate,
       s.id AS s_id, s.ref AS s_ref, s.kind AS s_kind, s.canonical_name AS s_name,
       o.id AS o_id, o.ref AS o_ref, o.kind AS o_kind, o.canonical_name AS o_name
FROM facts f
JOIN entities s ON s.id = f.subject_id
JOIN entities o ON o.id = f.object_entity_id
WHERE f.owner_sub = wm_owner() AND f.object_kind = 'entity'
  AND wm_believed(f.superseded_at) AND f.status = 'active'
  AND f.valid @> now()
  AND s.status <> 'merged' AND o.status <> 'merged'
  AND (%(predicates)s::text[] IS NULL OR f.predicate = ANY(%(predicates)s::text[]))
ORDER BY f.id
LIMIT %(max_rows)s + 1
