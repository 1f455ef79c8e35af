SET LOCAL ROLE worldmem_owner;

-- Whether `t` mentions a name (`pat`, from wm_erasure_pattern) or contains one of `vals` (erased values,
-- lower case, each also in its JSON-escaped form). A value is looked for only in a text that has its key
-- word (`keys`, wm_erasure_keys; a hashed lookup), then by position: an entity can have thousands of
-- values, and neither one pattern of thousands of alternatives (seconds to compile per statement) nor
-- comparing every text with every value (50 s for 5,000 turns and 10,000 values) keeps an erasure short
-- (bench/erase_bench.py). So a value is found where its key word stands as a word of its own.
CREATE OR REPLACE FUNCTION wm_erasure_hit(t text, pat text, vals text[], keys text[]) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN t IS NOT NULL AND (coalesce(t ~* pat, false) OR (
        EXISTS (SELECT 1 FROM regexp_split_to_table(lower(t), '[^[:alnum:]]+') w WHERE w IN (SELECT unnest(keys)))
        AND EXISTS (SELECT 1 FROM unnest(vals) v WHERE strpos(lower(t), v) > 0)));
