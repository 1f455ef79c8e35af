-- After the episode list's turns by meaning in the vector round (graph.finder.vector_list.near), which runs its
-- generic plan (finder_set_plans: planning it anew cost about 0.4 ms a search, also for an owner without any
-- turn): the vector statement's generic plan would not use the HNSW index (it cannot know k), so the plans
-- are back to the server's default before it.
SELECT set_config('plan_cache_mode', 'auto', true)
