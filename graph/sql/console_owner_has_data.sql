-- Whether the pinned owner has stored anything (row-level security limits entities to that owner).
-- Columns: has_data. The console warns when an owner (e.g. a typo of --owner) has nothing.
SELECT EXISTS (SELECT 1 FROM entities) AS has_data
