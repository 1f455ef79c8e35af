-- Entity projections whose entity no longer stands for itself (merged away) or whose kind is no longer
-- rag, among the keys of one sweep batch range: deleted, so search never answers with them.
-- Returns: id
DELETE FROM memory_projections p
WHERE p.owner_sub = wm_owner() AND p.source_kind = 'entity'
  AND p.source_key = ANY(%(keys)s::text[])
  AND NOT EXISTS (SELECT 1 FROM entities e JOIN entity_kinds k ON k.key = e.kind
                  WHERE e.owner_sub = wm_owner() AND e.id = p.source_key::uuid
                    AND e.merged_into_id IS NULL AND k.rag)
RETURNING p.id
