-- `worldmem db drop NAME`: a scratch database (the name is composed as an Identifier, never spliced).
DROP DATABASE IF EXISTS {name} WITH (FORCE)
