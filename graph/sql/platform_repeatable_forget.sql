DELETE FROM schema_repeatables WHERE name = %s
