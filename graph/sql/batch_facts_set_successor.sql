-- batch_facts_set_successor: record which row replaced each closed one, many at once (set once: a trigger
-- refuses a change).
UPDATE facts f SET superseded_by_fact_id = s.successor
FROM unnest(%(id)s::uuid[], %(successor)s::uuid[]) AS s(id, successor)
WHERE f.owner_sub = wm_owner() AND f.id = s.id AND f.superseded_at IS NOT NULL AND f.superseded_by_fact_id IS NULL
