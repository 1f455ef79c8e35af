-- Global vocabulary: entity kinds, relation types (predicates), event types. No RLS: shared by all owners.
SET LOCAL ROLE worldmem_owner;

CREATE TABLE entity_kinds (
    key          text PRIMARY KEY CHECK (key ~ '^([a-z][a-z0-9_]*:)?[a-z][a-z0-9_]*$'),
    name         text NOT NULL,
    description  text,
    privileged   boolean NOT NULL DEFAULT false,
    source       text NOT NULL DEFAULT 'core' CHECK (source IN ('core', 'integration')),
    trust_tier   smallint NOT NULL DEFAULT 0,
    state        text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'deprecated')),
    created_at   timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE TABLE relation_types (
    key               text PRIMARY KEY CHECK (key ~ '^([a-z][a-z0-9_]*:)?[a-z][a-z0-9_]*$'),
    name              text NOT NULL,
    description       text,
    inverse           text,
    cardinality       text NOT NULL CHECK (cardinality IN ('functional', 'set')),
    subject_kinds     text[],
    object_kinds      text[],
    is_symmetric      boolean NOT NULL DEFAULT false,
    is_transitive     boolean NOT NULL DEFAULT false,
    is_hierarchical   boolean NOT NULL DEFAULT false,
    inference_enabled boolean NOT NULL DEFAULT false,
    privileged        boolean NOT NULL DEFAULT false,
    source            text NOT NULL DEFAULT 'core' CHECK (source IN ('core', 'integration')),
    trust_tier        smallint NOT NULL DEFAULT 0,
    state             text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'deprecated')),
    created_at        timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE TABLE event_types (
    key          text PRIMARY KEY CHECK (key ~ '^([a-z][a-z0-9_]*:)?[a-z][a-z0-9_.]*$'),
    name         text NOT NULL,
    description  text,
    consequential boolean NOT NULL DEFAULT false,
    source       text NOT NULL DEFAULT 'core' CHECK (source IN ('core', 'integration')),
    created_at   timestamptz NOT NULL DEFAULT clock_timestamp()
);

INSERT INTO entity_kinds (key, name, description, privileged) VALUES
    ('person', 'Person', 'A human, the owner included', false),
    ('pet', 'Pet', 'An animal in the household', false),
    ('place', 'Place', 'A location', false),
    ('organization', 'Organization', 'A company, club or institution', false),
    ('project', 'Project', 'A body of work', false),
    ('repo', 'Repository', 'A source repository', false),
    ('file', 'File', 'A file in a repository or on disk', false),
    ('test', 'Test', 'An automated test', false),
    ('issue', 'Issue', 'A ticket or issue', false),
    ('device', 'Device', 'A physical or virtual device', false),
    ('task', 'Task', 'A to-do or scheduled job', false),
    ('chat', 'Chat', 'A conversation with the agent', false),
    ('document', 'Document', 'A note or document', false),
    ('topic', 'Topic', 'A subject of interest', false),
    ('thing', 'Thing', 'Anything else', false),
    ('agent', 'Agent', 'The agent itself', true),
    ('policy', 'Policy', 'A standing rule the agent must follow', true),
    ('preference', 'Preference', 'A standing preference of the owner', false);

INSERT INTO relation_types (key, name, cardinality, subject_kinds, object_kinds, inverse, description,
                            is_symmetric, is_transitive, is_hierarchical, inference_enabled, privileged) VALUES
    ('name', 'name', 'functional', NULL, NULL, NULL, 'Display name as of a time', false, false, false, false, false),
    ('description', 'description', 'functional', NULL, NULL, NULL, 'Free-text description', false, false, false, false, false),
    ('status', 'status', 'functional', NULL, NULL, NULL, 'Lifecycle state of a thing', false, false, false, false, false),
    ('email', 'email', 'set', ARRAY['person','organization'], NULL, NULL, 'An e-mail address', false, false, false, false, false),
    ('birthday', 'birthday', 'functional', ARRAY['person','pet'], NULL, NULL, 'Date of birth', false, false, false, false, false),
    ('feeding_time', 'feeding time', 'set', ARRAY['pet'], NULL, NULL, 'Time of day the pet is fed', false, false, false, false, false),
    ('prefers', 'prefers', 'set', ARRAY['person'], NULL, NULL, 'A standing preference', false, false, false, false, false),
    ('rule', 'rule', 'functional', ARRAY['policy'], NULL, NULL, 'The text of a policy', false, false, false, false, true),
    ('owns', 'owns', 'set', ARRAY['person','organization'], NULL, 'owned_by', 'Ownership', false, false, false, false, false),
    ('lives_in', 'lives in', 'functional', ARRAY['person','pet'], ARRAY['place'], 'residence_of', 'Residence', false, false, false, false, false),
    ('works_on', 'works on', 'set', ARRAY['person','agent'], ARRAY['project','repo','issue','task'], 'worked_on_by', 'Work', false, false, false, false, false),
    ('member_of', 'member of', 'set', ARRAY['person','agent'], ARRAY['organization','project'], 'has_member', 'Membership', false, false, false, false, false),
    ('part_of', 'part of', 'functional', NULL, NULL, 'has_part', 'Containment', false, true, true, true, false),
    ('located_in', 'located in', 'functional', ARRAY['place','device','organization'], ARRAY['place'], 'location_of', 'Geography', false, true, true, true, false),
    ('knows', 'knows', 'set', ARRAY['person'], ARRAY['person'], 'knows', 'Acquaintance', true, false, false, false, false),
    ('blocked_by', 'blocked by', 'set', ARRAY['issue','task'], ARRAY['issue','task'], 'blocks', 'Dependency', false, true, false, false, false),
    ('tests', 'tests', 'set', ARRAY['test'], ARRAY['file'], 'tested_by', 'Test coverage', false, false, false, false, false),
    ('applies_to', 'applies to', 'set', ARRAY['policy','preference'], NULL, 'governed_by', 'Scope of a policy', false, false, false, false, true);

INSERT INTO event_types (key, name, consequential) VALUES
    ('user_message', 'User message', false),
    ('agent_tool_call', 'Agent tool call', true),
    ('state_change', 'State change', false),
    ('automation_fire', 'Automation fire', true),
    ('follow_up_run', 'Follow-up run', false),
    ('integration_sync', 'Integration sync change', false),
    ('test_result', 'Test result', false),
    ('governance', 'Governance action', false);

GRANT SELECT ON entity_kinds, relation_types, event_types TO worldmem_app, worldmem_console;
GRANT INSERT, UPDATE ON entity_kinds, relation_types, event_types TO worldmem_app;
