-- Episodes: every chat turn is an episode of the owner's memory, found by words and by meaning. The turn store
-- stays the one store (chat_turns); these columns say when the turn was said (`occurred_at`, which an import
-- sets from the source conversation; `created_at` stays when it was stored), who spoke (`speaker`, a name
-- beside the role) and the caller's own id for it (`external_id`, unique per chat: an import is replayable).
SET LOCAL ROLE worldmem_owner;

ALTER TABLE chat_turns
    ADD COLUMN occurred_at timestamptz,
    ADD COLUMN speaker     text CHECK (speaker IS NULL OR length(speaker) BETWEEN 1 AND 200),
    ADD COLUMN external_id text CHECK (external_id IS NULL OR length(external_id) BETWEEN 1 AND 200);
UPDATE chat_turns SET occurred_at = created_at;
ALTER TABLE chat_turns
    ALTER COLUMN occurred_at SET DEFAULT clock_timestamp(),
    ALTER COLUMN occurred_at SET NOT NULL,
    -- the time-range rule of 0021 (what Python and the ledger can hold)
    ADD CONSTRAINT chat_turns_occurred_at_in_range
        CHECK (occurred_at >= '0001-01-02 00:00:00+00' AND occurred_at < '9999-12-31 00:00:00+00');

-- Replays look an import's ids up per chat; the unique index also stops two concurrent imports of one id.
CREATE UNIQUE INDEX chat_turns_external_id ON chat_turns (owner_sub, chat_id, external_id)
    WHERE external_id IS NOT NULL;
-- Episodes around a time (a question about the past) and a turn's neighbours.
CREATE INDEX chat_turns_occurred ON chat_turns (owner_sub, occurred_at);

-- An episode is found through its projection (source_kind 'episode', source_key the turn's id): the same
-- full-text and vector indexes as every other text the finder holds. Raw episodes have a retention class of
-- their own ('episodic'), so retention can age them without touching curated facts.
ALTER TABLE memory_projections DROP CONSTRAINT memory_projections_source_kind_check;
ALTER TABLE memory_projections ADD CONSTRAINT memory_projections_source_kind_check
    CHECK (source_kind IN ('entity', 'summary', 'rollup', 'event_summary', 'episode'));
ALTER TABLE memory_projections DROP CONSTRAINT memory_projections_retention_class_check;
ALTER TABLE memory_projections ADD CONSTRAINT memory_projections_retention_class_check
    CHECK (retention_class IN ('permanent', 'windowed', 'episodic'));

-- Retention prunes curated episodes behind the owner's episode window (graph/retention/episodes.py) through
-- wm_retention_prune_episodes: the app role itself deletes no turn (erasure's guarantee).
