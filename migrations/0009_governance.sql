-- Governance (Appendix D): suppression markers and the audit of entity merges.
-- Nothing is overwritten here either: a marker is lifted by closing it (lifted_at), a merge is undone by
-- closing it (split_at); the rows a merge moved are listed, so a split can restore exactly those.
SET LOCAL ROLE worldmem_owner;

-- A rejected proposal, bound to (subject, predicate, object-or-value, scope): the committer turns a
-- matching assertion from any source but the user into the rejection SUPPRESSED. A later explicit
-- user assertion of the same belief lifts it.
CREATE TABLE suppression_markers (
    id               uuid PRIMARY KEY DEFAULT uuidv7(),
    owner_sub        text NOT NULL DEFAULT wm_owner(),
    subject_id       uuid NOT NULL REFERENCES entities (id),
    predicate        text NOT NULL REFERENCES relation_types (key),
    value_key        text NOT NULL,  -- graph.facts.value_key: 'entity:<uuid>' or 'literal:<canonical JSON>'
    scope_entity_id  uuid REFERENCES entities (id),
    fact_id          uuid NOT NULL REFERENCES facts (id),  -- the rejected pending fact
    reason           text,
    recorded_at      timestamptz NOT NULL,
    run_id           text NOT NULL,
    lifted_at        timestamptz,
    lifted_by_run_id text,
    CHECK (lifted_at IS NULL OR lifted_at >= recorded_at),
    CHECK ((lifted_at IS NULL) = (lifted_by_run_id IS NULL))
);
CREATE UNIQUE INDEX suppression_markers_live ON suppression_markers (
    owner_sub, subject_id, predicate, value_key,
    (coalesce(scope_entity_id, '00000000-0000-0000-0000-000000000000'::uuid))
) WHERE lifted_at IS NULL;

-- One row per merge of `merged_id` into `into_id`; split_* is set when the merge is undone.
CREATE TABLE entity_merges (
    id             uuid PRIMARY KEY DEFAULT uuidv7(),
    owner_sub      text NOT NULL DEFAULT wm_owner(),
    merged_id      uuid NOT NULL REFERENCES entities (id),
    into_id        uuid NOT NULL REFERENCES entities (id),
    previous_status text NOT NULL CHECK (previous_status IN ('active', 'deprecated')),  -- restored by a split
    reason         text,
    recorded_at    timestamptz NOT NULL,
    run_id         text NOT NULL,
    event_id       uuid NOT NULL REFERENCES world_events (id),
    split_at       timestamptz,
    split_run_id   text,
    split_event_id uuid REFERENCES world_events (id),
    CHECK (merged_id <> into_id),
    CHECK (split_at IS NULL OR split_at >= recorded_at),
    CHECK ((split_at IS NULL) = (split_run_id IS NULL) AND (split_at IS NULL) = (split_event_id IS NULL))
);
CREATE UNIQUE INDEX entity_merges_open ON entity_merges (owner_sub, merged_id) WHERE split_at IS NULL;
CREATE INDEX entity_merges_into ON entity_merges (owner_sub, into_id) WHERE split_at IS NULL;
CREATE INDEX entity_merges_run ON entity_merges (owner_sub, run_id);
CREATE INDEX entity_merges_split_run ON entity_merges (owner_sub, split_run_id) WHERE split_run_id IS NOT NULL;

-- What one merge moved: a fact or alias row it closed (old_id) and the rows it inserted for the
-- survivor in its place (new_id; NULL when the survivor already believed it). old_id NULL: an alias the
-- merge added (the merged entity's name).
CREATE TABLE entity_merge_moves (
    merge_id  uuid NOT NULL REFERENCES entity_merges (id),
    owner_sub text NOT NULL DEFAULT wm_owner(),
    item      text NOT NULL CHECK (item IN ('fact', 'alias')),
    old_id    uuid,
    new_id    uuid,
    CHECK (old_id IS NOT NULL OR new_id IS NOT NULL)
);
CREATE INDEX entity_merge_moves_merge ON entity_merge_moves (merge_id);

CALL wm_owner_only('suppression_markers', 'entity_merges', 'entity_merge_moves');

-- A merge re-points references in subject, object and scope; the scope had no index yet.
CREATE INDEX facts_scope ON facts (scope_entity_id) WHERE scope_entity_id IS NOT NULL;
-- correctionNotices(chatId, since) starts from the chat's proposals.
CREATE INDEX proposals_chat ON proposals (owner_sub, chat_id, recorded_at) WHERE chat_id IS NOT NULL;

-- As for the ledger, the app may only close rows, never change what they say.
GRANT SELECT, INSERT ON suppression_markers, entity_merges, entity_merge_moves TO worldmem_app;
GRANT UPDATE (lifted_at, lifted_by_run_id) ON suppression_markers TO worldmem_app;
GRANT UPDATE (split_at, split_run_id, split_event_id) ON entity_merges TO worldmem_app;
GRANT SELECT ON suppression_markers, entity_merges, entity_merge_moves TO worldmem_console;
