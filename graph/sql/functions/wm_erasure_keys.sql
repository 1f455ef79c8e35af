SET LOCAL ROLE worldmem_owner;

-- The word each erased value is looked up by: its longest run of letters and digits (lower case).
CREATE OR REPLACE FUNCTION wm_erasure_keys(vals text[]) RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN ARRAY(SELECT DISTINCT (SELECT w FROM regexp_split_to_table(lower(v), '[^[:alnum:]]+') w
                                  ORDER BY length(w) DESC, w LIMIT 1)
                 FROM unnest(vals) v);
