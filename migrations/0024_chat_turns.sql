-- Curator intake: the owner's chat turns and, per chat, how far the curator has read them.
-- Both are owner tables like every other: row-level security against app.current_owner (fail-closed).
SET LOCAL ROLE worldmem_owner;

-- One row per chat turn, numbered per chat (seq 1, 2, ...; assigned under the curator_state row lock).
-- Turns are the curator's input; they are never changed after they are stored.
CREATE TABLE chat_turns (
    id          uuid PRIMARY KEY DEFAULT uuidv7(),
    owner_sub   text NOT NULL DEFAULT wm_owner(),
    chat_id     text NOT NULL CHECK (length(chat_id) BETWEEN 1 AND 200),
    seq         bigint NOT NULL CHECK (seq >= 1),
    run_id      text CHECK (run_id IS NULL OR length(run_id) BETWEEN 1 AND 200),
    role        text NOT NULL CHECK (role IN ('user', 'assistant', 'tool', 'system')),
    text        text NOT NULL DEFAULT '',
    thinking    text,
    tool_calls  jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(tool_calls) = 'array'),
    explicit    boolean NOT NULL DEFAULT false,  -- rememberThis: the owner asked to remember it
    created_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
    UNIQUE (owner_sub, chat_id, seq)
);

-- Per chat: the last seq assigned (the turn counter), the watermark (turns up to it are curated; moved
-- only forward, in the curator's commit transaction) and when the last turn arrived (the debounce and
-- the catch-up reconciler look at it).
CREATE TABLE curator_state (
    owner_sub     text NOT NULL DEFAULT wm_owner(),
    chat_id       text NOT NULL CHECK (length(chat_id) BETWEEN 1 AND 200),
    last_seq      bigint NOT NULL DEFAULT 0 CHECK (last_seq >= 0),
    watermark_seq bigint NOT NULL DEFAULT 0 CHECK (watermark_seq >= 0),
    last_turn_at  timestamptz,
    updated_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (owner_sub, chat_id),
    CHECK (watermark_seq <= last_seq)
);
-- lagging_chats: chats with turns past the watermark, by age of the last turn.
CREATE INDEX curator_state_lagging ON curator_state (owner_sub, last_turn_at) WHERE watermark_seq < last_seq;

CALL wm_owner_only('chat_turns', 'curator_state');

-- Turns are append-only for the app; the state row moves its counter, watermark and times only.
GRANT SELECT, INSERT ON chat_turns TO worldmem_app;
GRANT SELECT, INSERT ON curator_state TO worldmem_app;
GRANT UPDATE (last_seq, watermark_seq, last_turn_at, updated_at) ON curator_state TO worldmem_app;
-- The console (SELECT only, RLS applies) gets no grant: conversations are not world state, and a
-- power user's Cypher has no reason to read them.
