-- A predicate or kind the LLM used that the registry lacks: pending for the owner; a repeat counts a use.
INSERT INTO vocabulary_proposals (item, key, example, run_id)
VALUES (%(item)s, %(key)s, %(example)s, %(run_id)s)
ON CONFLICT (owner_sub, item, key) DO UPDATE SET uses = vocabulary_proposals.uses + 1
RETURNING item, key, state, uses
