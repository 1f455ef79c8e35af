-- sync_facts_successors: which row replaced each closed one (as facts_set_successor, for many rows).
-- Columns: none.
UPDATE facts f SET superseded_by_fact_id = k.successor
FROM unnest(%(ids)s::uuid[], %(successors)s::uuid[]) AS k(id, successor)
WHERE f.owner_sub = wm_owner() AND f.id = k.id AND f.superseded_at IS NOT NULL AND f.superseded_by_fact_id IS NULL
