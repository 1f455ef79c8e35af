INSERT INTO entity_aliases (entity_id, namespace, alias, valid_from, valid_to, recorded_at, source, run_id,
                            op_index)
VALUES (%(entity_id)s, %(namespace)s, %(alias)s, %(valid_from)s, %(valid_to)s, %(at)s, %(source)s, %(run_id)s,
        %(op_index)s)
RETURNING id
