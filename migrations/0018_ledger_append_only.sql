-- The ledger's system time moves forward only, enforced by the database rather than by the app's care.
-- Column grants (0003) let the app close a row (superseded_at, status); they could not say *how*: the app
-- role could move a closed row's superseded_at later (observed), rewriting what was known when.
SET LOCAL ROLE worldmem_owner;

-- Which row replaced a closed one. supersedes_fact_id on the new row names only one closed row; a new
-- value that closes several rows (or a split that leaves pieces) records each closed row's successor here.
ALTER TABLE facts ADD COLUMN superseded_by_fact_id uuid REFERENCES facts (id);
GRANT UPDATE (superseded_by_fact_id) ON facts TO worldmem_app;

-- A row's system time closes once: superseded_at NULL -> a value >= recorded_at, never moved again;
-- status moves only along the lifecycle below; the links to an invalidating or successor row are set once.
CREATE FUNCTION wm_facts_guard() RETURNS trigger
    LANGUAGE plpgsql AS $guard$
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
    -- leaving a believed status closes the row's system time in the same update
    IF OLD.status IN ('proposed', 'pending', 'active') AND NEW.status IS DISTINCT FROM OLD.status
            AND NEW.superseded_at IS NULL THEN
        RAISE EXCEPTION 'fact %: status % needs superseded_at', OLD.id, NEW.status USING ERRCODE = 'check_violation';
    END IF;
    IF OLD.invalidated_by_fact_id IS NOT NULL
            AND NEW.invalidated_by_fact_id IS DISTINCT FROM OLD.invalidated_by_fact_id THEN
        RAISE EXCEPTION 'fact %: invalidated_by_fact_id is set once', OLD.id USING ERRCODE = 'check_violation';
    END IF;
    IF OLD.superseded_by_fact_id IS NOT NULL
            AND NEW.superseded_by_fact_id IS DISTINCT FROM OLD.superseded_by_fact_id THEN
        RAISE EXCEPTION 'fact %: superseded_by_fact_id is set once', OLD.id USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.superseded_by_fact_id IS NOT NULL AND NEW.superseded_at IS NULL THEN
        RAISE EXCEPTION 'fact %: only a closed row has a successor', OLD.id USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$guard$;

CREATE TRIGGER facts_append_only BEFORE UPDATE ON facts FOR EACH ROW EXECUTE FUNCTION wm_facts_guard();

CREATE FUNCTION wm_aliases_guard() RETURNS trigger
    LANGUAGE plpgsql AS $guard$
BEGIN
    IF OLD.superseded_at IS NOT NULL AND NEW.superseded_at IS DISTINCT FROM OLD.superseded_at THEN
        RAISE EXCEPTION 'alias %: superseded_at is closed and cannot change', OLD.id USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$guard$;

CREATE TRIGGER entity_aliases_append_only BEFORE UPDATE ON entity_aliases
    FOR EACH ROW EXECUTE FUNCTION wm_aliases_guard();

-- causedBy names an event by id or by external ref; events.lookup does one indexed lookup each (the
-- primary key, world_events_external), so nothing new is needed here for it.
