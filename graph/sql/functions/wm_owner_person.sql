SET LOCAL ROLE worldmem_owner;

-- Who the owner is, as ONE rule. The owner's own person entity is `person:me`; without one, the one person
-- entity holding the believed alias "me" at the time asked (none or several: nobody; names are never guessed).
-- The rule was written three times with two answers: the context block read every "me" and Python chose
-- (graph.agent.world_context._owner: person:me, else the only person), while the owner's answer language
-- (graph/sql/gov_owner_language.sql) and the AGENTS.md export's (codemode_answer_language.sql) took the
-- answer_language of any of them, so a second person called "me" could set the owner's language. Now the
-- three statements call this function and the language is always the context's owner's.
-- SQL, STABLE, invoker's rights (row-level security as for the caller's statement: another owner's rows are
-- never seen); one index lookup by ref (entities_owner_ref) and one by alias (entity_aliases' alias_norm index).
CREATE OR REPLACE FUNCTION wm_owner_person(at_time timestamptz) RETURNS uuid
    LANGUAGE sql STABLE AS $fn$
SELECT coalesce(
    (SELECT id FROM entities WHERE owner_sub = wm_owner() AND ref = 'person:me' AND kind = 'person'),
    (SELECT CASE WHEN count(DISTINCT a.entity_id) = 1 THEN min(a.entity_id::text)::uuid END
     FROM entity_aliases a
     JOIN entities e ON e.id = a.entity_id
     WHERE a.owner_sub = wm_owner() AND e.owner_sub = wm_owner() AND a.alias_norm = 'me'
       AND wm_believed(a.superseded_at) AND e.kind = 'person'
       AND wm_during(a.valid_from, a.valid_to, at_time)))
$fn$;
REVOKE ALL ON FUNCTION wm_owner_person(timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_owner_person(timestamptz) TO worldmem_app;
