-- alias_end: end the world (valid) time of a believed alias, history kept: the believed row is closed at
-- the proposal's system time and the same identity is believed again with %(valid_to)s as its end. One
-- statement, so the believed-alias unique index (0003, WHERE superseded_at IS NULL) never sees two rows.
-- Columns: id (the new row).
WITH closed AS (
    UPDATE entity_aliases SET superseded_at = %(at)s
    WHERE owner_sub = wm_owner() AND id = %(id)s AND wm_believed(superseded_at)
    RETURNING entity_id, namespace, alias, valid_from
)
INSERT INTO entity_aliases (entity_id, namespace, alias, valid_from, valid_to, recorded_at, source, run_id, op_index)
SELECT entity_id, namespace, alias, valid_from, %(valid_to)s, %(at)s, %(source)s, %(run_id)s, %(op_index)s
FROM closed
RETURNING id
