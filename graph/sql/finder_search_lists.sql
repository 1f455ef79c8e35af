-- A text search's name, fact and text lists in one statement that pins %(owner)s itself (wm_search_text_lists,
-- wm_search_text_lists: the bodies of agent_search_entities, agent_search_facts and finder_search_text, with
-- finder_set_names' threshold and finder_set_plans' generic plans), for searches in rounds of their own
-- without a time range (graph.finder.search). One message, one row, one round trip.
-- Returns: names, facts, texts (each a json array of that list's rows, in the list's order)
SELECT names, facts, texts
FROM wm_search_text_lists(%(owner)s, %(query)s, %(forms)s, %(kind)s, %(at)s, %(k)s, %(from)s, %(to)s)
