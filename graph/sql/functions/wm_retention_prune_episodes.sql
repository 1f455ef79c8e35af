SET LOCAL ROLE worldmem_owner;

-- Delete episodes (chat turns) that a retention rollup now stands for, with their projections. SECURITY
-- DEFINER: the app role deletes no turn itself (erasure and retention are the only ways a turn goes), and
-- only turns the curator has already read (seq at or below the chat's watermark) go: what was never
-- curated is never pruned. Returns the number of turns deleted.
CREATE OR REPLACE FUNCTION wm_retention_prune_episodes(ids uuid[]) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
DECLARE
    doomed uuid[];
BEGIN
    IF wm_owner() IS NULL THEN
        RAISE EXCEPTION 'retention: no owner' USING ERRCODE = 'insufficient_privilege';
    END IF;
    SELECT coalesce(array_agg(t.id), '{}') INTO doomed
    FROM chat_turns t JOIN curator_state s ON s.owner_sub = t.owner_sub AND s.chat_id = t.chat_id
    WHERE t.owner_sub = wm_owner() AND t.id = ANY (ids) AND t.seq <= s.watermark_seq;
    DELETE FROM memory_projections p
    WHERE p.owner_sub = wm_owner() AND p.source_kind = 'episode' AND p.source_key = ANY (doomed::text[]);
    DELETE FROM chat_turns t WHERE t.id = ANY (doomed);
    RETURN cardinality(doomed);
END
$fn$;
REVOKE ALL ON FUNCTION wm_retention_prune_episodes(uuid[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_retention_prune_episodes(uuid[]) TO worldmem_app;
