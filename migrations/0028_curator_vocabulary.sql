-- Core vocabulary the curator needs for everyday conversations ("Luna ist meine Katze, Futter um 19 Uhr"
-- → person:me cares_for pet:luna; "luna" the git branch is a branch, not the cat).
SET LOCAL ROLE worldmem_owner;

INSERT INTO entity_kinds (key, name, description, privileged) VALUES
    ('branch', 'Branch', 'A branch of a source repository', false)
ON CONFLICT (key) DO NOTHING;

INSERT INTO relation_types (key, name, cardinality, subject_kinds, object_kinds, inverse, description) VALUES
    ('cares_for', 'cares for', 'set', ARRAY['person'], ARRAY['pet','person'], 'cared_for_by',
     'Looks after a pet or a person'),
    ('branch_of', 'branch of', 'functional', ARRAY['branch'], ARRAY['repo'], 'has_branch',
     'The repository a branch belongs to')
ON CONFLICT (key) DO NOTHING;
