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
-- drops). Positions and weights are not indexed (no statement matches phrases or weights). In a row whose
-- lexemes pass 2,029 bytes together a lexeme of more than 500 characters is left out of the index, since the
-- tag could push it past tsvector's limit of 2,046 bytes (and the insert would fail); no question holds
-- such a word. About 7 us a row (0078's function: 2 us, twice).
--
-- wm_owned_words is LEAKPROOF for the reason wm_owned_tsv was (0078): total on its inputs (STRICT; md5,
-- string and array functions of non-empty lexemes under the length limit cannot fail), no side effects, a
-- function of its arguments only, so evaluating it on another owner's row reveals nothing; plpgsql, so the
-- planner cannot inline it into non-LEAKPROOF parts. The query side is graph/sql/functions/wm_owned_query.sql.

CREATE FUNCTION public.wm_owned_words(owner text, kind text, german tsvector, english tsvector) RETURNS tsvector
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF AS $fn$
DECLARE
    tag constant text := substr(md5(owner), 1, 16) || CASE WHEN kind = 'episode' THEN 'e' ELSE 'x' END;
    -- \x01 joins and splits: no lexeme holds a control character
    plain text := array_to_string(tsvector_to_array(german) || tsvector_to_array(english), E'\x01');
BEGIN
    -- With the tag a lexeme of over 2,029 bytes would pass tsvector's limit; only a row whose lexemes are that
    -- long together can hold one, and only there the regex runs (it would triple the cost of every row):
    -- lexemes of over 500 characters (255 + 245 + 1: a bound is at most 255) become '' and are removed
    IF octet_length(plain) > 2029 THEN
        plain := regexp_replace(plain, '[^\x01]{255}[^\x01]{245}[^\x01]+', '', 'g');
    END IF;
    -- array_to_tsvector drops the lexemes both stemmings share
    RETURN array_to_tsvector(array_remove(
        string_to_array(tag || replace(plain, E'\x01', E'\x01' || tag), E'\x01'), tag));
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
