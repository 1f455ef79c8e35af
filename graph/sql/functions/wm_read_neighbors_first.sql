SET LOCAL ROLE worldmem_owner;

-- The first level of neighbors as ONE statement that pins its owner (see wm_pin_reader): its first statement
-- pins the owner, its second is graph/sql/traversal_first.sql with cypher/neighbors_first.cypher's call
-- composed in (graph.reads.traversal_first.statement(), comments left out; its values travel in `graph`,
-- cypher()'s parameter map). The composition is Python (sql.SQL.format), so this file holds its result and
-- tests/test_one_statement.py checks that it is still what those two files compose. Only worldmem_app may
-- execute it (wm_pin_reader's reasons).
CREATE OR REPLACE FUNCTION wm_read_neighbors_first(reader text, wanted text, system_time timestamptz,
                                        graph ag_catalog.agtype, all_types boolean)
        RETURNS TABLE (part integer, outcome text, id uuid, ref text, kind text, name text, types jsonb,
                   merged_then boolean, dir ag_catalog.agtype, from_id ag_catalog.agtype,
                   fact_id ag_catalog.agtype, predicate ag_catalog.agtype, scope ag_catalog.agtype,
                   valid_from ag_catalog.agtype, valid_to ag_catalog.agtype, recorded_at ag_catalog.agtype,
                   superseded_at ag_catalog.agtype, to_id ag_catalog.agtype, to_ref ag_catalog.agtype,
                   to_kind ag_catalog.agtype, to_name ag_catalog.agtype, to_status ag_catalog.agtype,
                   to_merged_into ag_catalog.agtype)
    LANGUAGE sql AS $fn$
SELECT public.wm_pin_reader(reader);
-- BEGIN composed
WITH origin AS MATERIALIZED (
    SELECT outcome, id, ref, kind, canonical_name FROM wm_resolve(wanted, system_time::timestamptz, true)
), hops AS (
    SELECT * FROM ag_catalog.cypher('worldgraph', $wm_cypher$UNWIND public.wm_frontier($ref, $r) AS fid
MATCH (a:Entity) WHERE a.id = fid
MATCH (a)-[r:REL]->(b:Entity)
WHERE $out AND public.wm_during(r.valid_from, r.valid_to, $v) AND public.wm_known(r.recorded_at, r.superseded_at, $r)
  AND ($predicates IS NULL OR r.predicate IN $predicates)
RETURN 'out' AS dir, a.id AS from_id, r.id AS fact_id, r.predicate AS predicate, r.scope AS scope,
       r.valid_from AS valid_from, r.valid_to AS valid_to, r.recorded_at AS recorded_at,
       r.superseded_at AS superseded_at, b.id AS to_id, b.ref AS to_ref, b.kind AS to_kind, b.name AS to_name,
       b.status AS to_status, b.merged_into AS to_merged_into
UNION ALL
UNWIND public.wm_frontier($ref, $r) AS fid
MATCH (a:Entity) WHERE a.id = fid
MATCH (a)<-[r:REL]-(b:Entity)
WHERE $incoming AND public.wm_during(r.valid_from, r.valid_to, $v) AND public.wm_known(r.recorded_at, r.superseded_at, $r)
  AND ($predicates IS NULL OR r.predicate IN $predicates)
RETURN 'in' AS dir, a.id AS from_id, r.id AS fact_id, r.predicate AS predicate, r.scope AS scope,
       r.valid_from AS valid_from, r.valid_to AS valid_to, r.recorded_at AS recorded_at,
       r.superseded_at AS superseded_at, b.id AS to_id, b.ref AS to_ref, b.kind AS to_kind, b.name AS to_name,
       b.status AS to_status, b.merged_into AS to_merged_into$wm_cypher$, graph) AS ("dir" ag_catalog.agtype, "from_id" ag_catalog.agtype, "fact_id" ag_catalog.agtype, "predicate" ag_catalog.agtype, "scope" ag_catalog.agtype, "valid_from" ag_catalog.agtype, "valid_to" ag_catalog.agtype, "recorded_at" ag_catalog.agtype, "superseded_at" ag_catalog.agtype, "to_id" ag_catalog.agtype, "to_ref" ag_catalog.agtype, "to_kind" ag_catalog.agtype, "to_name" ag_catalog.agtype, "to_status" ag_catalog.agtype, "to_merged_into" ag_catalog.agtype)
)
SELECT 0 AS part, o.outcome, o.id, o.ref, o.kind, o.canonical_name AS name,
       (SELECT jsonb_agg(t) FROM (SELECT key, inverse, is_transitive, inference_enabled, source, trust_tier
                                  FROM relation_types
                                  WHERE all_types OR key IN (SELECT h.predicate::text FROM hops h)) t) AS types,
       CASE WHEN system_time::timestamptz IS NOT NULL THEN
           EXISTS (SELECT 1 FROM entity_merges WHERE owner_sub = wm_owner()
                   AND recorded_at <= system_time::timestamptz) END AS merged_then,
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
-- END composed
;
$fn$;
REVOKE EXECUTE ON FUNCTION wm_read_neighbors_first(text, text, timestamptz, ag_catalog.agtype, boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_read_neighbors_first(text, text, timestamptz, ag_catalog.agtype, boolean) TO worldmem_app;
