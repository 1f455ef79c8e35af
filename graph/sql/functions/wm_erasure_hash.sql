SET LOCAL ROLE worldmem_owner;

-- The digest a ref is remembered by.
CREATE OR REPLACE FUNCTION wm_erasure_hash(ref text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN encode(sha256(convert_to(ref, 'UTF8')), 'hex');
GRANT EXECUTE ON FUNCTION wm_erasure_hash(text) TO worldmem_app;
