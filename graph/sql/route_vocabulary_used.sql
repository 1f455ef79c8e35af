-- route_vocabulary_used: the shared vocabulary the owner's rows use but did not register (an export carries
-- only the owner's own keys; the other cluster may lack these). Superuser connection. Columns: tbl, rows
SELECT 'entity_kinds' AS tbl, coalesce(jsonb_agg(to_jsonb(k)), '[]'::jsonb) AS rows FROM entity_kinds k
WHERE k.registered_owner IS DISTINCT FROM %(owner)s
  AND k.key IN (SELECT kind FROM entities WHERE owner_sub = %(owner)s
                UNION SELECT kind FROM sync_entries WHERE owner_sub = %(owner)s)
UNION ALL
SELECT 'relation_types', coalesce(jsonb_agg(to_jsonb(t)), '[]'::jsonb) FROM relation_types t
WHERE t.registered_owner IS DISTINCT FROM %(owner)s
  AND t.key IN (SELECT predicate FROM facts WHERE owner_sub = %(owner)s
                UNION SELECT predicate FROM suppression_markers WHERE owner_sub = %(owner)s)
