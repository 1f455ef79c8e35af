-- Erasure: the owner's request to make the memory really lose an entity (or one predicate of it), with a
-- receipt that says what went and never what it was (graph/erasure/, docs/erasure.md).
--
-- The ledger is append-only for the app: worldmem_app holds no DELETE on any ledger table and the facts
-- guard (0018) refuses rewriting a closed row. Erasure is the one deliberate exception, and it is narrow:
-- the functions below run as worldmem_owner (SECURITY DEFINER), which the app cannot become (no membership)
-- and cannot imitate (the guard's `pruning` branch trusts current_user, not a setting the app could set).
-- They delete only the rows of the calling owner (every table forces row-level security, also for
-- worldmem_owner), only what the named ref reaches, and always write a receipt in the same transaction.

-- The graph mirror's label tables belong to the superuser; erasure deletes vertices and edges through
-- their parents (policies of the parents apply, so only the owner's), as worldmem_owner.
GRANT SELECT, DELETE ON worldgraph._ag_label_vertex, worldgraph._ag_label_edge TO worldmem_owner;
GRANT SELECT ON worldgraph."Entity", worldgraph."Event", worldgraph."REL", worldgraph."CAUSED" TO worldmem_owner;
GRANT DELETE ON worldgraph."Entity", worldgraph."Event", worldgraph."REL", worldgraph."CAUSED" TO worldmem_owner;
GRANT USAGE ON SCHEMA worldgraph TO worldmem_owner;

SET LOCAL ROLE worldmem_owner;

-- One receipt per erasure, which is also the tombstone: `target_hashes` are SHA-256 digests of the erased
-- refs (hex), so a later read of the ref can say "erased on D" without the ref itself being kept. The
-- reason is kept with every erased term replaced by [erased]; counts are per table and per graph label.
CREATE TABLE erasures (
    id             uuid PRIMARY KEY DEFAULT uuidv7(),
    owner_sub      text NOT NULL DEFAULT wm_owner(),
    kind           text NOT NULL CHECK (kind IN ('entity', 'facts')),
    target_hashes  text[] NOT NULL,
    predicate      text,
    token_id       uuid,
    token_kind     text NOT NULL,
    reason         text NOT NULL DEFAULT '',
    erased_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    counts         jsonb NOT NULL,
    receipt_hash   text NOT NULL
);
CREATE INDEX erasures_owner_targets ON erasures USING gin (target_hashes);
CREATE INDEX erasures_owner_time ON erasures (owner_sub, erased_at DESC);
ALTER TABLE erasures ENABLE ROW LEVEL SECURITY;
ALTER TABLE erasures FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_only ON erasures USING (owner_sub = wm_owner()) WITH CHECK (owner_sub = wm_owner());
ALTER TABLE erasures ALTER COLUMN owner_sub SET STATISTICS 0;  -- see 0036
GRANT SELECT ON erasures TO worldmem_app;  -- written only by wm_erase

-- Surviving rows that lost a link to an erased row (a cause, a predecessor): explainChange says that its
-- chain was cut there, and by which erasure, instead of ending as if nothing had been before.
CREATE TABLE erasure_cuts (
    owner_sub   text NOT NULL DEFAULT wm_owner(),
    row_id      uuid NOT NULL,
    row_kind    text NOT NULL CHECK (row_kind IN ('fact', 'event')),
    link        text NOT NULL,
    erasure_id  uuid NOT NULL REFERENCES erasures (id),
    PRIMARY KEY (owner_sub, row_id, link, erasure_id)
);
ALTER TABLE erasure_cuts ENABLE ROW LEVEL SECURITY;
ALTER TABLE erasure_cuts FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_only ON erasure_cuts USING (owner_sub = wm_owner()) WITH CHECK (owner_sub = wm_owner());
ALTER TABLE erasure_cuts ALTER COLUMN owner_sub SET STATISTICS 0;
GRANT SELECT ON erasure_cuts TO worldmem_app;

-- The digest a ref is remembered by.
CREATE OR REPLACE FUNCTION wm_erasure_hash(ref text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN encode(sha256(convert_to(ref, 'UTF8')), 'hex');
GRANT EXECUTE ON FUNCTION wm_erasure_hash(text) TO worldmem_app;

-- The case-insensitive pattern of text that mentions any of `terms` as a whole word (so "Max" does not
-- take "maximum" with it), in plain text or in its JSON-escaped form (jsonb text escapes quotes and
-- backslashes). NULL for no terms: `x ~* NULL` matches nothing.
CREATE OR REPLACE FUNCTION wm_erasure_pattern(terms text[]) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN '(^|[^[:alnum:]_])(' || (
        SELECT string_agg(regexp_replace(x, '([.^$|()\[\]{}*+?\\])', '\\\1', 'g'), '|')
        FROM (SELECT lower(y) AS x FROM unnest(terms) y
              UNION SELECT lower(substr(to_jsonb(y)::text, 2, length(to_jsonb(y)::text) - 2)) FROM unnest(terms) y) s
    ) || ')($|[^[:alnum:]_])';

-- The word each erased value is looked up by: its longest run of letters and digits (lower case).
CREATE OR REPLACE FUNCTION wm_erasure_keys(vals text[]) RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN ARRAY(SELECT DISTINCT (SELECT w FROM regexp_split_to_table(lower(v), '[^[:alnum:]]+') w
                                  ORDER BY length(w) DESC, w LIMIT 1)
                 FROM unnest(vals) v);

-- Whether `t` mentions a name (`pat`, from wm_erasure_pattern) or contains one of `vals` (erased values,
-- lower case, each also in its JSON-escaped form). A value is looked for only in a text that has its key
-- word (`keys`, wm_erasure_keys; a hashed lookup), then by position: an entity can have thousands of
-- values, and neither one pattern of thousands of alternatives (seconds to compile per statement) nor
-- comparing every text with every value (50 s for 5,000 turns and 10,000 values) keeps an erasure short
-- (bench/erase_bench.py). So a value is found where its key word stands as a word of its own.
CREATE OR REPLACE FUNCTION wm_erasure_hit(t text, pat text, vals text[], keys text[]) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN t IS NOT NULL AND (coalesce(t ~* pat, false) OR (
        EXISTS (SELECT 1 FROM regexp_split_to_table(lower(t), '[^[:alnum:]]+') w WHERE w IN (SELECT unnest(keys)))
        AND EXISTS (SELECT 1 FROM unnest(vals) v WHERE strpos(lower(t), v) > 0)));

-- A ref that was erased is never created again by a write that was in flight (the committer refuses it
-- first with ERASED_REF; this is the database's own line behind it).
CREATE OR REPLACE FUNCTION wm_erasure_entity_guard() RETURNS trigger
    LANGUAGE plpgsql AS $fn$
BEGIN
    IF EXISTS (SELECT 1 FROM public.erasures x
               WHERE x.owner_sub = NEW.owner_sub AND x.kind = 'entity'
                 AND x.target_hashes @> ARRAY[public.wm_erasure_hash(NEW.ref)]) THEN
        RAISE EXCEPTION 'ref was erased at the owner''s request' USING ERRCODE = 'WE003';
    END IF;
    RETURN NEW;
END
$fn$;
CREATE TRIGGER entities_not_erased BEFORE INSERT ON entities
    FOR EACH ROW EXECUTE FUNCTION wm_erasure_entity_guard();

-- A projection written from a read taken before an erasure (the finder's reconciler, in flight) must not
-- bring the erased entity's text back: a projection naming an entity that no longer exists is skipped.
-- FOR KEY SHARE waits for an erasure holding the entity row, then sees it gone.
CREATE OR REPLACE FUNCTION wm_erasure_projection_guard() RETURNS trigger
    LANGUAGE plpgsql AS $fn$
DECLARE
    wanted int := coalesce(cardinality(NEW.entity_ids), 0);
    present int;
BEGIN
    IF wanted = 0 THEN
        RETURN NEW;
    END IF;
    SELECT count(*) INTO present FROM (
        SELECT 1 FROM public.entities e WHERE e.id = ANY(NEW.entity_ids) FOR KEY SHARE) s;
    IF present < (SELECT count(DISTINCT i) FROM unnest(NEW.entity_ids) i) THEN
        RETURN NULL;
    END IF;
    RETURN NEW;
END
$fn$;
CREATE TRIGGER memory_projections_not_erased BEFORE INSERT OR UPDATE OF entity_ids, text ON memory_projections
    FOR EACH ROW EXECUTE FUNCTION wm_erasure_projection_guard();
