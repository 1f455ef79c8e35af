SET LOCAL ROLE worldmem_owner;

-- Every writer (the committer, a bulk path, COPY) gets the type's class without knowing about it; an
-- insert that names another class than the default keeps it.
CREATE OR REPLACE FUNCTION wm_event_retention() RETURNS trigger
    LANGUAGE plpgsql AS $retention$
BEGIN
    IF NEW.retention_class = 'standard' THEN
        NEW.retention_class := coalesce(
            (SELECT t.retention_class FROM event_types t WHERE t.key = NEW.event_type), 'standard');
    END IF;
    RETURN NEW;
END
$retention$;

CREATE OR REPLACE TRIGGER world_events_retention BEFORE INSERT ON world_events
    FOR EACH ROW EXECUTE FUNCTION wm_event_retention();
