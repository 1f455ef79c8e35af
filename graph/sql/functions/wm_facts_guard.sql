SET LOCAL ROLE worldmem_owner;

-- The ledger's system time moves forward only, enforced by the database rather than by the app's care:
-- column grants let the app close a row (superseded_at, status) but could not say *how* (the app role could
-- move a closed row's superseded_at later, rewriting what was known when). The links to a successor or
-- invalidating row may become NULL when that row is pruned (the foreign key's ON DELETE SET NULL runs as the
-- table owner; the app never is).
CREATE OR REPLACE FUNCTION wm_facts_guard() RETURNS trigger
    LANGUAGE plpgsql AS $guard$
DECLARE
    pruning boolean := current_user = 'worldmem_owner';
BEGIN
    IF OLD.superseded_at IS NOT NULL AND NEW.superseded_at IS DISTINCT FROM OLD.superseded_at THEN
        RAISE EXCEPTION 'fact %: superseded_at is closed and cannot change', OLD.id USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.superseded_at IS NOT NULL AND NEW.superseded_at < OLD.recorded_at THEN
        RAISE EXCEPTION 'fact %: superseded_at before recorded_at', OLD.id USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.status IS DISTINCT FROM OLD.status AND (OLD.status, NEW.status) NOT IN (
            ('proposed', 'pending'), ('proposed', 'active'), ('proposed', 'superseded'), ('proposed', 'invalidated'),
            ('pending', 'superseded'), ('pending', 'invalidated'),
            ('active', 'superseded'), ('active', 'invalidated'), ('active', 'expired'),
            ('superseded', 'archived'), ('invalidated', 'archived'), ('expired', 'archived')) THEN
        RAISE EXCEPTION 'fact %: status % cannot become %', OLD.id, OLD.status, NEW.status
            USING ERRCODE = 'check_violation';
    END IF;
    IF OLD.status IN ('proposed', 'pending', 'active') AND NEW.status IS DISTINCT FROM OLD.status
            AND NEW.superseded_at IS NULL THEN
        RAISE EXCEPTION 'fact %: status % needs superseded_at', OLD.id, NEW.status USING ERRCODE = 'check_violation';
    END IF;
    IF OLD.invalidated_by_fact_id IS NOT NULL
            AND NEW.invalidated_by_fact_id IS DISTINCT FROM OLD.invalidated_by_fact_id
            AND NOT (pruning AND NEW.invalidated_by_fact_id IS NULL) THEN
        RAISE EXCEPTION 'fact %: invalidated_by_fact_id is set once', OLD.id USING ERRCODE = 'check_violation';
    END IF;
    IF OLD.superseded_by_fact_id IS NOT NULL
            AND NEW.superseded_by_fact_id IS DISTINCT FROM OLD.superseded_by_fact_id
            AND NOT (pruning AND NEW.superseded_by_fact_id IS NULL) THEN
        RAISE EXCEPTION 'fact %: superseded_by_fact_id is set once', OLD.id USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.superseded_by_fact_id IS NOT NULL AND NEW.superseded_at IS NULL THEN
        RAISE EXCEPTION 'fact %: only a closed row has a successor', OLD.id USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$guard$;

CREATE OR REPLACE TRIGGER facts_append_only BEFORE UPDATE ON facts FOR EACH ROW EXECUTE FUNCTION wm_facts_guard();
