-- The text list of searchWorldMemory without reading the owner's whole posting list.
-- Runs as the migrating superuser: CREATE FUNCTION ... LEAKPROOF needs it.
--
-- (owner_sub, tsv) GIN indexes keep the owner as a key of its own (btree_gin), and a scan pays
-- for the owner's whole entry: "aktiver Status" (no text holds "aktiv") took 10-16 ms per language at
-- bench-a's 74,000 projections, 71 index pages each, for nothing. How much depends on the index's history:
-- built afresh the same index answered in 0.13 ms, but these indexes grow row by row (the reconciler), and
-- on a scratch table whose rows were inserted, deleted and inserted again the old shape took 3.1 ms against
-- 0.13 ms for the one below. A GIN on the tsvector alone answers the words in 0.04 ms but then knows no
-- owner, and the planner ANDs it with all of the owner's rows from the owner btree (9-18 ms: with owner_sub
-- at STATISTICS 0 (0036) both look like 0.5 % of the table).
--
-- Here the owner is one more lexeme of the indexed vector (wm_owned_tsv: the stored stemming plus
-- 'wmowner' || md5(owner_sub)), and finder_search_text matches the words and the owner's lexeme
-- (wm_owner_tsquery) as two conditions on the same index. GIN then visits the owner's entry only at the
-- rows its rarest word has (0.1-0.5 ms for the queries above, custom and generic plans). The lexeme only
-- narrows the scan: row-level security still filters every row by owner_sub, so a text that happens to hold
-- another owner's lexeme, or an md5 collision, can only cost a row that the policy then drops.
--
-- wm_owned_tsv is LEAKPROOF so that, under row-level security, the match is an index condition ahead of the
-- owner policy (as ts_match_vq since 0008). The claim: it is total on its inputs (STRICT; md5 and
-- array_to_tsvector of a non-empty lexeme cannot fail, and a projection text is at most 8,000 characters,
-- far below tsvector's 1 MB), has no side effects, and returns only a function of its arguments, so
-- evaluating it on another owner's row reveals nothing. plpgsql, not sql, so the planner cannot inline it
-- into the non-LEAKPROOF operators it is made of (the index would then be unusable under the policy).
-- Owned by the migrating superuser: only a superuser may mark a function LEAKPROOF, so only one may
-- replace it. Recorded in graph/age/console_snapshot.json with the other LEAKPROOF claims.

CREATE FUNCTION public.wm_owned_tsv(owner text, tsv tsvector) RETURNS tsvector
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF AS $fn$
BEGIN
    RETURN tsv || array_to_tsvector(ARRAY['wmowner' || md5(owner)]);
END
$fn$;

SET LOCAL ROLE worldmem_owner;

CREATE INDEX memory_projections_owned_tsv_de ON memory_projections
    USING gin (wm_owned_tsv(owner_sub, tsv_german)) WITH (fastupdate = off);
CREATE INDEX memory_projections_owned_tsv_en ON memory_projections
    USING gin (wm_owned_tsv(owner_sub, tsv_english)) WITH (fastupdate = off);
