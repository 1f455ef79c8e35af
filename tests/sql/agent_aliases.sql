-- Believed aliases of a batch of entities, valid at %(at)s: the statement recall.get_entity ran as a second round trip,
-- kept as the oracle of tests/test_one_statement.py (agent_get_entity.sql reads them in its one statement now).
SELECT entity_id, alias, namespace
FROM entity_aliases
WHERE owner_sub = wm_owner() AND entity_id = ANY(%(ids)s) AND superseded_at IS NULL
  AND valid_from <= %(at)s AND (valid_to IS NULL OR valid_to > %(at)s)
ORDER BY entity_id, namespace, alias
