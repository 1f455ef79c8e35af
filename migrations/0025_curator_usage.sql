-- Curator spend: a token bucket per owner (checked before every LLM call) and one usage row per call.
-- Owner tables with the same row-level security as every other.
SET LOCAL ROLE worldmem_owner;

-- The bucket's level at `updated_at`; refill is computed from the elapsed time (curator/quota.py), so
-- nothing has to tick. Capacity and rate are settings, not stored: changing them applies at once.
CREATE TABLE curator_quota (
    owner_sub  text PRIMARY KEY DEFAULT wm_owner(),
    level      double precision NOT NULL CHECK (level >= 0),
    updated_at timestamptz NOT NULL
);

-- What each LLM call cost, for the owner to see (curatorUsage) and for tokens-per-day metrics.
CREATE TABLE curator_usage (
    id             uuid PRIMARY KEY DEFAULT uuidv7(),
    owner_sub      text NOT NULL DEFAULT wm_owner(),
    run_id         text NOT NULL CHECK (length(run_id) BETWEEN 1 AND 200),
    model          text NOT NULL CHECK (length(model) BETWEEN 1 AND 300),
    input_tokens   integer NOT NULL CHECK (input_tokens >= 0),
    output_tokens  integer NOT NULL CHECK (output_tokens >= 0),
    trigger_source text NOT NULL CHECK (length(trigger_source) BETWEEN 1 AND 100),
    recorded_at    timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX curator_usage_owner_time ON curator_usage (owner_sub, recorded_at);

CALL wm_owner_only('curator_quota', 'curator_usage');

GRANT SELECT, INSERT ON curator_quota, curator_usage TO worldmem_app;
GRANT UPDATE (level, updated_at) ON curator_quota TO worldmem_app;
