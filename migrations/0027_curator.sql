-- The curator's own records: one row per curator run, the operations it dropped (with the
-- reason, so messy LLM output never disappears silently), and the vocabulary it wished it had (pending
-- registry entries: a predicate or kind the LLM invented waits for the owner, never enters the registry).
SET LOCAL ROLE worldmem_owner;

-- One curator run over a batch of turns (from_seq..upto_seq of one chat). `run_id` is the committer's
-- run id, so the committed proposal and this row share a key; `status` says how it ended.
CREATE TABLE curator_runs (
    owner_sub    text NOT NULL DEFAULT wm_owner(),
    run_id       text NOT NULL,
    chat_id      text NOT NULL,
    from_seq     bigint NOT NULL,
    upto_seq     bigint NOT NULL,
    status       text NOT NULL CHECK (status IN ('committed', 'skipped', 'failed', 'deferred')),
    model        text,
    retried      boolean NOT NULL DEFAULT false,
    proposed     integer NOT NULL DEFAULT 0,
    committed    integer NOT NULL DEFAULT 0,
    pending      integer NOT NULL DEFAULT 0,
    dropped      integer NOT NULL DEFAULT 0,
    error        text,
    recorded_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
    CHECK (upto_seq >= from_seq)
);
-- A failed run may be tried again under the same run id: only its latest row is the run's state.
CREATE INDEX curator_runs_run ON curator_runs (owner_sub, run_id, recorded_at DESC);
CREATE INDEX curator_runs_chat ON curator_runs (owner_sub, chat_id, recorded_at DESC);

-- An operation the curator proposed and did not commit: the op as proposed, the code and the reason.
CREATE TABLE curator_dropped_ops (
    owner_sub   text NOT NULL DEFAULT wm_owner(),
    run_id      text NOT NULL,
    op_index    integer NOT NULL,
    op          jsonb NOT NULL,
    code        text NOT NULL,
    reason      text NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (owner_sub, run_id, op_index)
);

-- Vocabulary the LLM used that the registry does not have: waits for the owner (state 'pending').
CREATE TABLE vocabulary_proposals (
    owner_sub   text NOT NULL DEFAULT wm_owner(),
    item        text NOT NULL CHECK (item IN ('predicate', 'entity_kind')),
    key         text NOT NULL,
    state       text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'accepted', 'rejected')),
    example     jsonb NOT NULL,  -- the first operation that used it
    run_id      text NOT NULL,
    uses        integer NOT NULL DEFAULT 1,
    recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (owner_sub, item, key)
);

CALL wm_owner_only('curator_runs', 'curator_dropped_ops', 'vocabulary_proposals');

-- Runs and dropped ops are append-only records; a vocabulary proposal counts its uses (UPDATE).
GRANT SELECT, INSERT ON curator_runs, curator_dropped_ops TO worldmem_app;
GRANT SELECT, INSERT, UPDATE ON vocabulary_proposals TO worldmem_app;
GRANT SELECT ON curator_runs, curator_dropped_ops, vocabulary_proposals TO worldmem_console;
