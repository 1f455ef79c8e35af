-- Scratch tables of the seed: row number -> ledger id -> AGE graphid, so both sides agree.
CREATE SCHEMA IF NOT EXISTS bench;
CREATE TABLE IF NOT EXISTS bench.ent (
    owner text NOT NULL, i int NOT NULL, id uuid NOT NULL, gid ag_catalog.graphid NOT NULL, kind text NOT NULL,
    PRIMARY KEY (owner, i)
);
CREATE TABLE IF NOT EXISTS bench.ev (
    owner text NOT NULL, k int NOT NULL, slot int NOT NULL, id uuid NOT NULL, gid ag_catalog.graphid NOT NULL,
    PRIMARY KEY (owner, k, slot)
);
CREATE TABLE IF NOT EXISTS bench.meta (
    owner text PRIMARY KEY, entities int NOT NULL, runs int NOT NULL, seeded_at timestamptz NOT NULL
);
