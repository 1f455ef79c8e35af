-- entity_update: rename and/or describe an entity (a NULL description or external id keeps the known one),
-- and keep what it said before in entity_descriptions (migrations/0120) when its name or description changes:
-- known from the end of its previous kept row (else its creation) until %(at)s. One statement; the CTE `old`
-- reads the row as it was before the UPDATE (one snapshot). Columns: as entity_insert.sql.
WITH old AS (
    SELECT e.id, e.canonical_name, e.description,
           coalesce((SELECT max(d.superseded_at) FROM entity_descriptions d
                     WHERE d.owner_sub = e.owner_sub AND d.entity_id = e.id), e.created_at) AS known_since
    FROM entities e
    WHERE e.id = %(id)s
), updated AS (
    UPDATE entities
    SET canonical_name = %(name)s, description = coalesce(%(description)s, description),
        external_id = coalesce(%(external_id)s, external_id), updated_at = %(at)s
    WHERE id = %(id)s
    RETURNING id, ref, kind, canonical_name, description, status, merged_into_id, created_at
), kept AS (
    INSERT INTO entity_descriptions (entity_id, canonical_name, description, recorded_at, superseded_at, run_id)
    SELECT o.id, o.canonical_name, o.description, least(o.known_since, %(at)s), %(at)s, %(run_id)s
    FROM old o JOIN updated u ON u.id = o.id
    WHERE (o.canonical_name, o.description) IS DISTINCT FROM (u.canonical_name, u.description)
)
SELECT id, ref, kind, canonical_name, status, merged_into_id, created_at FROM updated
