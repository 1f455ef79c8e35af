-- searchWorldMemory's fact list bounded by valid time.
--
-- The list answers current beliefs (superseded_at IS NULL, active) that are valid now or later. The
-- (owner_sub, value_tsv) GIN index of 0040 holds every fact ever written, so a word that many current beliefs
-- hold in a valid time that has ended was fetched row by row and thrown away by the valid-time filter:
-- "draft" at bench.search_scale's 100,000 entities matched 100,000 status facts whose valid time ended 100
-- days ago, 312 ms (25,941 heap pages) for an empty list. Two indexes let agent_search_facts bound both
-- halves of "valid now or later" by an index condition (measured as worldmem_app under RLS, same query,
-- custom and generic plans, 0.10-0.14 ms):
--
-- 1. Open-ended current beliefs (valid_to IS NULL, the usual case): a GIN index over only those rows, so a
--    word search never meets a row whose valid time ended. `@@` is LEAKPROOF (0008), so it is an index
--    condition ahead of the owner policy. No pending list (0060's reason: right after a bulk import the
--    planner would price the index out).
-- 2. Current beliefs with an end (valid_to IS NOT NULL): a btree on (owner_sub, valid_to), so "ends after
--    now" is a range condition (`>` on timestamptz is LEAKPROOF). Few rows end in the future; the ones that
--    ended are never read. The statement matches the words of those few rows by calling ts_match_vq, which
--    no index matches, so no plan (custom or generic, whatever the estimate of `@@`) can fetch the ended
--    rows by their words through another index.
--
-- Searches with a time range (timeRange) keep 0040's index (agent_search_facts_during): their bound is the
-- caller's and may reach far into the past.
SET LOCAL ROLE worldmem_owner;

CREATE INDEX facts_open_value_tsv ON facts USING gin (owner_sub, value_tsv) WITH (fastupdate = off)
    WHERE superseded_at IS NULL AND status = 'active' AND valid_to IS NULL AND value_tsv IS NOT NULL;
CREATE INDEX facts_ending_literal ON facts (owner_sub, valid_to)
    WHERE superseded_at IS NULL AND status = 'active' AND valid_to IS NOT NULL AND value_tsv IS NOT NULL;
