INSERT INTO entity_merge_moves (merge_id, item, old_id, new_id)
SELECT %(merge_id)s, m.item, m.old_id, m.new_id
FROM unnest(%(items)s::text[], %(old_ids)s::uuid[], %(new_ids)s::uuid[]) AS m (item, old_id, new_id)
