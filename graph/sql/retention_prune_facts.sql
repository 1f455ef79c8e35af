-- retention_prune_facts: delete the rolled-up rows (checks in wm_retention_prune_facts, 0043). Columns: n.
SELECT wm_retention_prune_facts(%(series_key)s, %(ids)s::uuid[], %(edge)s::timestamptz) AS n
