SET LOCAL ROLE worldmem_owner;

-- The case-insensitive pattern of text that mentions any of `terms` as a whole word (so "Max" does not
-- take "maximum" with it), in plain text or in its JSON-escaped form (jsonb text escapes quotes and
-- backslashes). NULL for no terms: `x ~* NULL` matches nothing.
CREATE OR REPLACE FUNCTION wm_erasure_pattern(terms text[]) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN '(^|[^[:alnum:]_])(' || (
        SELECT string_agg(regexp_replace(x, '([.^$|()\[\]{}*+?\\])', '\\\1', 'g'), '|')
        FROM (SELECT lower(y) AS x FROM unnest(terms) y
              UNION SELECT lower(substr(to_jsonb(y)::text, 2, length(to_jsonb(y)::text) - 2)) FROM unnest(terms) y) s
    ) || ')($|[^[:alnum:]_])';
