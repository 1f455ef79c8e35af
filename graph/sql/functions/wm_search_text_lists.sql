SET LOCAL ROLE worldmem_owner;

-- A text search's lists (names, facts, texts, facts as answers, episodes by any word) in ONE statement that
-- pins its owner: one call, one message, one result row, where a pipeline of statements woke server and
-- client once per statement and planned the answer statement anew (custom plans) on every search. The
-- first statement pins the owner for the statement's implicit transaction (wm_pin_reader: app.current_owner
-- and READ ONLY, transaction-locally) and sets what graph/sql/finder_set_names.sql and finder_set_plans.sql
-- set (the name list's trigram threshold; generic plans for the lists). The second is the lists as
-- graph/sql/agent_search_entities.sql, agent_search_facts.sql, finder_search_text.sql,
-- finder_search_answers.sql and finder_search_episodes.sql have them: included, not copied
-- (graph.platform.repeatables), so a change to one of those files re-applies this function. Each list's rows
-- are one json array in the list's own order (json, not jsonb: built as text and sent as it is, where jsonb
-- would be built, then printed again). The fact and answer lists are the ones without a time range (a search
-- with one runs the lists as a round of statements). `question_words` is the OR tsquery text of the
-- question's content words ('' for none: no answer by value, no episode), `word_sets` the episode list's
-- candidate sets (graph.finder.answers.tsquery_terms) and `with_turns` whether the text list holds turns; the
-- caps (200) are graph.finder.answers.POOL and WORD_CAP (tests/test_search_one_statement.py). Argument names
-- differ from every column name (in a SQL function a column of the same name would win).
-- Safe as wm_pin_reader's readers: the caller's rights (row-level security as for any statement of the app
-- role), the owner pinned through pg_catalog.set_config, which the console role may not execute, settings
-- that end with the statement's transaction, and only worldmem_app may execute it.
DROP FUNCTION IF EXISTS wm_search_text_lists(text, text, text[], text, timestamptz, integer, timestamptz, timestamptz);
DROP FUNCTION IF EXISTS wm_search_text_lists(text, text, text[], text, timestamptz, integer, timestamptz, timestamptz, text,
                                           text[]);
CREATE OR REPLACE FUNCTION wm_search_text_lists(reader text, words text, name_forms text[], of_kind text, at_time timestamptz,
                                     k_rows integer, since timestamptz, until timestamptz, question_words text,
                                     word_sets text[], with_turns boolean)
    RETURNS TABLE (names json, facts json, texts json, answers json, episodes json)
    LANGUAGE sql AS $fn$
SELECT public.wm_pin_reader(reader),
       pg_catalog.set_config('pg_trgm.word_similarity_threshold', '0.6', true),
       pg_catalog.set_config('plan_cache_mode', 'force_generic_plan', true);
SELECT
    (SELECT coalesce(json_agg(l ORDER BY l.score DESC, l.ref), '[]'::json) FROM (
-- include: agent_search_entities (query=words, forms=name_forms, kind=of_kind, at=at_time, k=k_rows, from=since, to=until)
    ) l),
    (SELECT coalesce(json_agg(l ORDER BY l.score DESC, l.id), '[]'::json) FROM (
-- include: agent_search_facts (query=words, forms=name_forms, kind=of_kind, at=at_time, k=k_rows, from=since, to=until)
    ) l),
    (SELECT coalesce(json_agg(l ORDER BY l.score DESC, l.id), '[]'::json) FROM (
-- include: finder_search_text (query=words, forms=name_forms, kind=of_kind, at=at_time, k=k_rows, from=since, to=until, cap=200, episodes=with_turns)
    ) l),
    (SELECT coalesce(json_agg(l ORDER BY l.id), '[]'::json) FROM (
-- include: finder_search_answers (words=question_words, forms=name_forms, kind=of_kind, at=at_time, k=k_rows, from=since, to=until, pool=200, valid_at=at_time, timed=false, during=false)
    ) l),
    (SELECT coalesce(json_agg(l ORDER BY l.score DESC, l.id), '[]'::json) FROM (
-- include: finder_search_episodes (words=question_words, terms=word_sets, cap=200, k=k_rows, from=since, to=until, near=NULL, model=NULL)
    ) l)
;
$fn$;
REVOKE EXECUTE ON FUNCTION wm_search_text_lists(text, text, text[], text, timestamptz, integer, timestamptz, timestamptz, text, text[], boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_search_text_lists(text, text, text[], text, timestamptz, integer, timestamptz, timestamptz, text, text[], boolean) TO worldmem_app;
