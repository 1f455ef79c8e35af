-- traversal_first: the first level of neighbors(%(ref)s) in one statement (one statement per read
-- after the owner, in one round). The FROM item of `hops` is cypher/neighbors_first.cypher's call (composed in
-- by graph.reads.traversal_first from the named file; its values travel in %(graph)s, cypher()'s parameter map).
-- Rows: first the head (part 0): outcome and the origin's id / ref / kind / name (wm_resolve, graph/sql/functions/,
-- as known at %(system_time)s, following merges), types (the relation types, the columns of
-- traversal_relation_types.sql as a jsonb array: every one with %(all_types)s, for a walk deeper than this
-- level, else only those of the edges found, for their labels: all of them cost 0.28 ms a call, measured) and merged_then (traversal_any_merge_at.sql's answer; NULL
-- when believed now); then one row per edge (part 1) in the agtype columns of neighbors_first.cypher.
-- This statement is the body of wm_read_neighbors_first (graph/sql/functions/), which pins the owner first; the
-- running statement calls it (traversal_first_pinned.sql). tests/test_one_statement.py checks that the
-- migration's body is still this file with the Cypher file composed in: a change here needs a new migration.
WITH origin AS MATERIALIZED (
    SELECT outcome, id, ref, kind, canonical_name FROM wm_resolve(%(ref)s, %(system_time)s::timestamptz, true)
), hops AS (
    SELECT * FROM {hops}
)
SELECT 0 AS part, o.outcome, o.id, o.ref, o.kind, o.canonical_name AS name,
       (SELECT jsonb_agg(t) FROM (SELECT key, inverse, is_transitive, inference_enabled, source, trust_tier
                                  FROM relation_types
                                  WHERE %(all_types)s OR key IN (SELECT h.predicate::text FROM hops h)) t) AS types,
       CASE WHEN %(system_time)s::timestamptz IS NOT NULL THEN
           EXISTS (SELECT 1 FROM entity_merges WHERE owner_sub = wm_owner()
                   AND recorded_at <= %(system_time)s::timestamptz) END AS merged_then,
       NULL::ag_catalog.agtype AS dir, NULL::ag_catalog.agtype AS from_id, NULL::ag_catalog.agtype AS fact_id,
       NULL::ag_catalog.agtype AS predicate, NULL::ag_catalog.agtype AS scope,
       NULL::ag_catalog.agtype AS valid_from, NULL::ag_catalog.agtype AS valid_to,
       NULL::ag_catalog.agtype AS recorded_at, NULL::ag_catalog.agtype AS superseded_at,
       NULL::ag_catalog.agtype AS to_id, NULL::ag_catalog.agtype AS to_ref, NULL::ag_catalog.agtype AS to_kind,
       NULL::ag_catalog.agtype AS to_name, NULL::ag_catalog.agtype AS to_status,
       NULL::ag_catalog.agtype AS to_merged_into
FROM origin o
UNION ALL
SELECT 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, h.dir, h.from_id, h.fact_id, h.predicate, h.scope,
       h.valid_from, h.valid_to, h.recorded_at, h.superseded_at, h.to_id, h.to_ref, h.to_kind, h.to_name,
       h.to_status, h.to_merged_into
FROM hops h
