SET LOCAL ROLE worldmem_owner;

CREATE OR REPLACE FUNCTION wm_due_for_statistics(t regclass) RETURNS boolean
    LANGUAGE sql STABLE SET search_path = public, pg_temp
    RETURN (SELECT c.reltuples < 0 OR pg_relation_size(c.oid) / current_setting('block_size')::bigint > 2 * c.relpages
            FROM pg_class c WHERE c.oid = t);
REVOKE ALL ON FUNCTION wm_due_for_statistics(regclass) FROM PUBLIC;
