-- Per search transaction, before agent_search_entities: its index condition `q <% name` keeps names of word
-- similarity at least this threshold, the list's own cut (dist <= 0.4, i.e. similarity >= 0.6), so the
-- condition only skips rows the list would drop anyway (pg_trgm's default is the same 0.6; set so that a
-- session setting elsewhere cannot narrow the list).
SELECT set_config('pg_trgm.word_similarity_threshold', '0.6', true)
