SET LOCAL ROLE worldmem_owner;

-- A text search's text list, 0.2 ms less for a common word (issue 11): the entities each projection row
-- points at (graph/sql/finder_search_text.sql's `found`) were read by calling wm_projection_entities (0073) with
-- a subquery as its argument, which the planner does not inline, so the function ran as a statement of its
-- own; now the ids are a column of a one-row subquery and the function is inlined into the plan. Each row then
-- picks its entities from `found` in entity_ids' order (json, by array_position) instead of an unnest joined
-- to `found` per row and a jsonb built and printed again. wm_search_text_lists (0082) holds the file's body,
-- so it is replaced here with the new block (tests/test_search_one_statement.py compares the newest migration
-- defining it with the three files); its other two blocks, its arguments and its grants are unchanged. The
-- vector lists' files changed the same way (they are not in a function). bench/README.md, tenth pass:
-- wm_search_text_lists for the comparison world's 400 keywords p50 / p95 0.92 / 1.45 -> 0.86 / 1.26 ms.
-- A text search's three lists in ONE statement that pins its owner (issue 11), as 0080's point reads: the
-- name, fact and text lists of searchWorldMemory were a pipeline of six statements (the owner, the plan mode,
-- the name threshold and the three lists) and a Sync, each statement flushed and answered on its own, and the
-- client woke for each result; now one call, one message, one result row. wm_search_text_lists' first
-- statement pins the owner for the statement's implicit transaction (wm_pin_reader, 0080: app.current_owner
-- and READ ONLY, transaction-locally) and sets what graph/sql/finder_set_names.sql and finder_set_plans.sql
-- set (the name list's trigram threshold; generic plans for the lists); its second statement is the three
-- lists as graph/sql/agent_search_entities.sql, agent_search_facts.sql and finder_search_text.sql have them
-- (comment lines left out, placeholders named: words, name_forms, of_kind, at_time, k_rows, since, until),
-- each list's rows one json array in the list's own order (json, not jsonb: built as text and sent as it is,
-- where jsonb would be built, then printed again; 0.3 ms less for a word 57 rows hold).
-- tests/test_search_one_statement.py checks that each block between BEGIN and END is still what its file
-- says, so a change to one of the files needs a new migration. The fact list is the one without a time range (a search with one keeps its rounds). Argument
-- names differ from every column name (in a SQL function a column of the same name would win).
-- Safe as 0080's functions: the caller's rights (row-level security as for any statement of the app role),
-- the owner pinned through pg_catalog.set_config, which the console role may not execute, settings that end
-- with the statement's transaction, and only worldmem_app may execute it.
CREATE OR REPLACE FUNCTION wm_search_text_lists(reader text, words text, name_forms text[], of_kind text, at_time timestamptz,
                                     k_rows integer, since timestamptz, until timestamptz)
    RETURNS TABLE (names json, facts json, texts json)
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
-- include: finder_search_text (query=words, forms=name_forms, kind=of_kind, at=at_time, k=k_rows, from=since, to=until)
    ) l)
;
$fn$;
REVOKE EXECUTE ON FUNCTION wm_search_text_lists(text, text, text[], text, timestamptz, integer, timestamptz, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_search_text_lists(text, text, text[], text, timestamptz, integer, timestamptz, timestamptz) TO worldmem_app;
