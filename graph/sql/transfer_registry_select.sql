-- transfer_registry_select: the vocabulary keys of one registry that `owner` registered, as JSON objects
-- without the registrant (the importer's owner becomes it). Columns: r.
SELECT to_jsonb(x) - 'registered_owner' AS r FROM {table} x WHERE registered_owner = %(owner)s ORDER BY key
