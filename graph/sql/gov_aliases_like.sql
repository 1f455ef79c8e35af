-- Aliases believed now that name the same entity with the same words as one of the given alias rows.
SELECT DISTINCT a.id
FROM entity_aliases n
JOIN entity_aliases a ON a.owner_sub = n.owner_sub AND a.entity_id = n.entity_id
                     AND a.namespace = n.namespace AND a.alias_norm = n.alias_norm
WHERE n.owner_sub = wm_owner() AND n.id = ANY(%(ids)s) AND wm_believed(a.superseded_at)
