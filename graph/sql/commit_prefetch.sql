-- commit_prefetch: what a proposal will ask before it writes (graph/ledger/prefetch.py; the batched path's
-- prefetch asks it too), in one statement: whether the owner has a live suppression marker, the registered
-- entity kinds among %(kinds)s and relation types among %(predicates)s (rows as registries_entity_kind_get and
-- registries_relation_type_get return one), and the owner's entities named by exact ref in %(refs)s (rows as
-- entity_by_ref), and the proposal stored under %(run_id)s (as proposal_get: NULL for none; the committer's
-- replay check, asked here after the clock lock's statement). Columns: live (boolean), kinds, relation_types,
-- entities (json arrays), stored (json: payload_hash, result), believed (json array). With %(believed)s, also the
-- believed rows of those entities for those predicates (every scope), locked as facts_believed_for_update locks
-- them, with the columns the committer's plan reads (graph/ledger/ops.py believe, _carry_out): the single
-- operation's own read of them, one statement and one round trip fewer.
SELECT EXISTS (SELECT 1 FROM suppression_markers WHERE owner_sub = wm_owner() AND lifted_at IS NULL) AS live,
       (SELECT coalesce(json_agg(k), '[]'::json) FROM (
            SELECT key, name, description, privileged, source, trust_tier, state
            FROM entity_kinds WHERE key = ANY(%(kinds)s::text[])) k) AS kinds,
       (SELECT coalesce(json_agg(t), '[]'::json) FROM (
            SELECT key, name, description, inverse, cardinality, subject_kinds, object_kinds, is_symmetric,
                   is_transitive, is_hierarchical, inference_enabled, privileged, source, trust_tier, state
            FROM relation_types WHERE key = ANY(%(predicates)s::text[])) t) AS relation_types,
       (SELECT coalesce(json_agg(e), '[]'::json) FROM (
            SELECT id, ref, kind, canonical_name, status, merged_into_id, created_at
            FROM entities WHERE owner_sub = wm_owner() AND ref = ANY(%(refs)s::text[])) e) AS entities,
       (SELECT row_to_json(p) FROM (
            SELECT payload_hash, result FROM proposals WHERE owner_sub = wm_owner() AND run_id = %(run_id)s) p
       ) AS stored,
       (SELECT coalesce(json_agg(b), '[]'::json) FROM (
            SELECT f.id, f.subject_id, f.predicate, f.functional, f.valid_from, f.valid_to, f.object_kind,
                   f.object_value, f.object_entity_id, f.observed_at, f.source, f.source_trust_tier, f.changed_by,
                   f.caused_by_event_id, f.confidence, f.memory_type, f.scope_entity_id, f.scope_kind, f.priority,
                   f.evidence, f.reason
            FROM entities e JOIN facts f ON f.subject_id = e.id
            WHERE %(believed)s AND e.owner_sub = wm_owner() AND e.ref = ANY(%(refs)s::text[])
              AND f.owner_sub = wm_owner() AND f.predicate = ANY(%(predicates)s::text[])
              AND wm_believed(f.superseded_at) AND f.status = 'active'
            ORDER BY f.valid_from
            FOR UPDATE OF f) b) AS believed
