SET LOCAL ROLE worldmem_owner;

CREATE OR REPLACE FUNCTION wm_aliases_guard() RETURNS trigger
    LANGUAGE plpgsql AS $guard$
BEGIN
    IF OLD.superseded_at IS NOT NULL AND NEW.superseded_at IS DISTINCT FROM OLD.superseded_at THEN
        RAISE EXCEPTION 'alias %: superseded_at is closed and cannot change', OLD.id USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$guard$;

CREATE OR REPLACE TRIGGER entity_aliases_append_only BEFORE UPDATE ON entity_aliases
    FOR EACH ROW EXECUTE FUNCTION wm_aliases_guard();
