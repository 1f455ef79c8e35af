-- First in a search's first round when the round is a transaction of its own (graph.finder.rounds.OwnerRounds;
-- never in a caller's transaction, where it would outlive the search): the name, fact and text lists run
-- their generic plans. psycopg prepares them after five runs on a connection; with the server's default
-- (auto) a statement whose generic plan is estimated dearer than its custom ones is planned again on every
-- run (agent_search_facts: 1.15 against 0.30 ms p50 at 100,000 entities, 1.49 against 0.57 under load on the
-- comparison world). Their generic plans take the same indexes as the custom ones
-- (tests/test_search_plans.py asserts it for both full-text lists).
SELECT set_config('plan_cache_mode', 'force_generic_plan', true)
