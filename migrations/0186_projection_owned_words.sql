-- One projection text index keyed by owner and class: every lexeme of a row, of its German and its English
-- stemming alike, is indexed as tag || lexeme, the tag being the first 16 hex digits of md5(owner_sub) and a class letter ('e' for an
-- episode, 'x' for every other projection). Runs as the migrating superuser: LEAKPROOF needs it.
--
-- Why: 0078's indexes held the owner as one more lexeme of each row, and a scan ANDed the words with it. For
-- an owner of 110,000 projections (100,000 turns) the owner's lexeme has a posting list of 110,000 rows, and
-- a common word (4,400 of them) made GIN decode most of it: 1.0-1.3 ms per word and language, five candidate
-- sets of the episode list and two languages 12 ms of "What did Miguel say about the contract renewal?" at
-- bench.recall_scale. With the owner inside each key a word's scan reads that owner's posting list of that
-- word and nothing else, and the class inside it lets a list ask for turns only (the episode list) or for
-- everything but turns (the context builder's entity fallback, which read 200 turns to drop them). Both
-- stemmings in one index: a word is one scan, not one per language (most words stem alike in both).
--
-- Matching stays what it was: the statements still test the stored stemming (tsv_german, tsv_english) in
-- their filter, and row-level security filters by owner_sub; the tag only narrows the scan (another owner's
-- text holding this owner's tag as a word, or an md5 prefix shared by two owners, costs a row the filter
-- drops). Positions and weights are not indexed (no statement matches phrases or weights). A lexeme of
-- more than 500 characters is left out of the index, since the tag could push it past tsvector's limit of
-- 2,046 bytes (and the insert would fail); no question holds such a word.
--
-- wm_owned_words is LEAKPROOF for the reason wm_owned_tsv was (0078): total on its inputs (STRICT; md5,
-- string and array functions of non-empty lexemes under the length limit cannot fail), no side effects, a
-- function of its arguments only, so evaluating it on another owner's row reveals nothing; plpgsql, so the
-- planner cannot inline it into non-LEAKPROOF parts. The query side is graph/sql/functions/wm_owned_query.sql.

CREATE FUNCTION public.wm_owned_words(owner text, kind text, german tsvector, english tsvector) RETURNS tsvector
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF AS $fn$
DECLARE
    tag constant text := substr(md5(owner), 1, 16) || CASE WHEN kind = 'episode' THEN 'e' ELSE 'x' END;
BEGIN
    -- \x01 joins and splits (no lexeme holds a control character); a tagged lexeme of over 517 characters
    -- becomes '' and is removed (a regex bound is at most 255: 255 + 255 + 7); array_to_tsvector drops the
    -- lexemes both stemmings share
    RETURN array_to_tsvector(array_remove(string_to_array(regexp_replace(
        tag || array_to_string(tsvector_to_array(german) || tsvector_to_array(english), E'\x01' || tag),
        '[^\x01]{255}[^\x01]{255}[^\x01]{7,}', '', 'g'), E'\x01'), ''));
END
$fn$;

SET LOCAL ROLE worldmem_owner;

CREATE INDEX memory_projections_owned_words ON memory_projections
    USING gin (wm_owned_words(owner_sub, source_kind, tsv_german, tsv_english)) WITH (fastupdate = off);

DROP INDEX memory_projections_owned_tsv_de;
DROP INDEX memory_projections_owned_tsv_en;

RESET ROLE;
DROP FUNCTION public.wm_owned_tsv(text, tsvector);
DROP FUNCTION IF EXISTS public.wm_owner_tsquery();  -- a repeatable file until now: absent on a new database
