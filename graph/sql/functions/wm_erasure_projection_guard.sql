SET LOCAL ROLE worldmem_owner;

-- A projection written from a read taken before an erasure (the finder's reconciler, in flight) must not
-- bring the erased entity's text back: a projection naming an entity that no longer exists is skipped.
-- FOR KEY SHARE waits for an erasure holding the entity row, then sees it gone.
CREATE OR REPLACE FUNCTION wm_erasure_projection_guard() RETURNS trigger
    LANGUAGE plpgsql AS $fn$
DECLARE
    wanted int := coalesce(cardinality(NEW.entity_ids), 0);
    present int;
BEGIN
    IF wanted = 0 THEN
        RETURN NEW;
    END IF;
    SELECT count(*) INTO present FROM (
        SELECT 1 FROM public.entities e WHERE e.id = ANY(NEW.entity_ids) FOR KEY SHARE) s;
    IF present < (SELECT count(DISTINCT i) FROM unnest(NEW.entity_ids) i) THEN
        RETURN NULL;
    END IF;
    RETURN NEW;
END
$fn$;
CREATE OR REPLACE TRIGGER memory_projections_not_erased BEFORE INSERT OR UPDATE OF entity_ids, text ON memory_projections
    FOR EACH ROW EXECUTE FUNCTION wm_erasure_projection_guard();
