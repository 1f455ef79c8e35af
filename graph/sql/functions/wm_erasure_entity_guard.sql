SET LOCAL ROLE worldmem_owner;

-- A ref that was erased is never created again by a write that was in flight (the committer refuses it
-- first with ERASED_REF; this is the database's own line behind it).
CREATE OR REPLACE FUNCTION wm_erasure_entity_guard() RETURNS trigger
    LANGUAGE plpgsql AS $fn$
BEGIN
    IF EXISTS (SELECT 1 FROM public.erasures x
               WHERE x.owner_sub = NEW.owner_sub AND x.kind = 'entity'
                 AND x.target_hashes @> ARRAY[public.wm_erasure_hash(NEW.ref)]) THEN
        RAISE EXCEPTION 'ref was erased at the owner''s request' USING ERRCODE = 'WE003';
    END IF;
    RETURN NEW;
END
$fn$;
CREATE OR REPLACE TRIGGER entities_not_erased BEFORE INSERT ON entities
    FOR EACH ROW EXECUTE FUNCTION wm_erasure_entity_guard();
