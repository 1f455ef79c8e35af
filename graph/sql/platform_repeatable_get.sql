SELECT checksum FROM schema_repeatables WHERE name = %s
