-- An alias names at most one entity at any instant of its world (valid) time, not for ever: once given up
-- (its believed row ended, graph.ledger.aliases.end) another entity may take it over from then on, as a
-- phone number is reassigned. The believed-alias unique index of 0003 forbade that for as long as the ended
-- row stayed believed; in its place an exclusion constraint refuses two believed rows of one alias whose
-- periods overlap (btree_gist, 0001, for the equality columns), and a plain index keeps the lookups of
-- alias_believed / batch_aliases_of_names on the same columns.
SET LOCAL ROLE worldmem_owner;

DROP INDEX entity_aliases_believed;
CREATE INDEX entity_aliases_believed ON entity_aliases (owner_sub, namespace, alias_norm)
    WHERE superseded_at IS NULL;
ALTER TABLE entity_aliases ADD CONSTRAINT entity_aliases_believed_once EXCLUDE USING gist (
    owner_sub WITH =, namespace WITH =, alias_norm WITH =, tstzrange(valid_from, valid_to) WITH &&
) WHERE (superseded_at IS NULL);
