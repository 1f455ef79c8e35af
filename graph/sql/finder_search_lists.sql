-- A text search's name, fact, text, answer and episode lists in one statement that pins %(owner)s itself
-- (wm_search_text_lists: the bodies of agent_search_entities, agent_search_facts, finder_search_text,
-- finder_search_answers and finder_search_episodes, with finder_set_names' threshold and finder_set_plans'
-- generic plans), for searches in rounds of their own without a time range (graph.finder.search). One
-- message, one row, one round trip. %(words)s: the question's content words as an OR tsquery text ('' for
-- none), %(terms)s the episode list's candidate sets, %(episodes)s whether the text list holds turns.
-- Returns: names, facts, texts, answers, episodes (each a json array of that list's rows, in the list's order)
SELECT names, facts, texts, answers, episodes
FROM wm_search_text_lists(%(owner)s, %(query)s, %(forms)s, %(kind)s, %(at)s, %(k)s, %(from)s, %(to)s, %(words)s,
                          %(terms)s, %(episodes)s)
