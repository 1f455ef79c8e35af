-- The Cypher console: an allow-list of AGE functions, not a deny-list.
-- Before this migration worldmem_console could execute 349 of AGE 1.8's 370 ag_catalog functions, because
-- every AGE function is created executable by PUBLIC and 0006/0010 revoked only the ones found dangerous;
-- a function a new AGE version adds would arrive executable too. Now:
--   1. the app (and the schema owner) get explicitly what they could execute so far, so nothing of
--      theirs changes;
--   2. nothing in ag_catalog is executable by PUBLIC or by the console role any more;
--   3. the console gets exactly what Cypher reads run: agtype/graphid I/O, casts, operators and
--      comparisons, vertex/edge/path construction and the Cypher functions (scalar, list, string, math,
--      aggregate), variable-length MATCH. Not: graph/label DDL, loaders, upgrade helpers, the whole-graph
--      caches and shortest paths (they ignore row-level security), prepared Cypher, the write clauses.
--   4. functions the admin creates in ag_catalog later (an `ALTER EXTENSION age UPDATE`) are not
--      executable by PUBLIC; `worldmem doctor` reports any drift from graph/age/console_snapshot.json.
-- Runs as the admin (the extension's owner): only the owner of a function can grant on it.

DO $grants$
DECLARE
    f regprocedure;
    r text;
BEGIN
    FOREACH r IN ARRAY ARRAY['worldmem_app', 'worldmem_owner'] LOOP
        FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
                 WHERE p.pronamespace = 'ag_catalog'::regnamespace AND has_function_privilege(r, p.oid, 'EXECUTE')
        LOOP
            EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO %I', f, r);
        END LOOP;
    END LOOP;
END
$grants$;

REVOKE ALL ON ALL FUNCTIONS IN SCHEMA ag_catalog FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA ag_catalog FROM worldmem_console;
ALTER DEFAULT PRIVILEGES IN SCHEMA ag_catalog REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;

DO $allow$
DECLARE
    f regprocedure;
    -- by name: every overload of a name is granted (AGE overloads only on argument types)
    allowed text[] := ARRAY[
        -- the entry point and what the Cypher planner puts into every read
        'cypher', '_agtype_build_vertex', '_agtype_build_edge', '_agtype_build_path', '_label_name',
        '_extract_label_id', '_graphid', '_label_id', '_ag_enforce_edge_uniqueness', '_ag_enforce_edge_uniqueness2',
        '_ag_enforce_edge_uniqueness3', '_ag_enforce_edge_uniqueness4', 'agtype_volatile_wrapper',
        -- agtype: I/O, casts, operators, comparisons, containment, access
        'agtype_in', 'agtype_out', 'agtype_recv', 'agtype_send', 'agtype_add', 'agtype_sub', 'agtype_mul',
        'agtype_div', 'agtype_mod', 'agtype_pow', 'agtype_neg', 'agtype_any_add', 'agtype_any_sub',
        'agtype_any_mul', 'agtype_any_div', 'agtype_any_mod', 'agtype_eq', 'agtype_ne', 'agtype_lt', 'agtype_gt',
        'agtype_le', 'agtype_ge', 'agtype_any_eq', 'agtype_any_ne', 'agtype_any_lt', 'agtype_any_gt',
        'agtype_any_le', 'agtype_any_ge', 'agtype_btree_cmp', 'agtype_hash_cmp', 'agtype_concat',
        'agtype_contains', 'agtype_contained_by', 'agtype_contains_top_level', 'agtype_contained_by_top_level',
        'agtype_exists', 'agtype_exists_any', 'agtype_exists_all', 'agtype_exists_agtype',
        'agtype_exists_any_agtype', 'agtype_exists_all_agtype', 'agtype_access_operator', 'agtype_access_slice',
        'agtype_in_operator', 'agtype_array_element', 'agtype_array_element_text', 'agtype_object_field',
        'agtype_object_field_text', 'agtype_object_field_agtype', 'agtype_object_field_text_agtype',
        'agtype_extract_path', 'agtype_extract_path_text', 'agtype_string_match_starts_with',
        'agtype_string_match_ends_with', 'agtype_string_match_contains', 'agtype_build_list', 'agtype_build_map',
        'agtype_build_map_nonull', 'agtype_array_to_agtype', 'agtype_typecast_bool', 'agtype_typecast_int',
        'agtype_typecast_float', 'agtype_typecast_numeric', 'agtype_typecast_vertex', 'agtype_typecast_edge',
        'agtype_typecast_path', 'agtype_to_bool', 'agtype_to_int2', 'agtype_to_int4', 'agtype_to_int8',
        'agtype_to_float8', 'agtype_to_text', 'agtype_to_json', 'agtype_to_jsonb', 'agtype_to_graphid',
        'agtype_to_int4_array', 'bool_to_agtype', 'int4_to_agtype', 'int8_to_agtype', 'float8_to_agtype',
        'text_to_agtype', 'jsonb_to_agtype', 'graphid_to_agtype', 'vertex_to_agtype', 'edge_to_agtype',
        'vertex_to_json', 'vertex_to_jsonb', 'edge_to_json', 'edge_to_jsonb',
        -- graphid, vertex and edge comparisons
        'graphid_in', 'graphid_out', 'graphid_recv', 'graphid_send', 'graphid_eq', 'graphid_ne', 'graphid_lt',
        'graphid_gt', 'graphid_le', 'graphid_ge', 'graphid_btree_cmp', 'graphid_btree_sort', 'graphid_hash_cmp',
        'vertex_eq', 'vertex_ne', 'edge_eq', 'edge_ne',
        -- Cypher functions on vertices, edges and paths
        'age_id', 'age_label', 'age_labels', 'age_type', 'age_properties', 'age_keys', 'age_start_id',
        'age_end_id', 'age_startnode', 'age_endnode', '_get_vertex_by_graphid', 'age_nodes', 'age_relationships', 'age_length',
        'age_exists', 'age_timestamp',
        -- lists, strings, conversions
        'age_size', 'age_head', 'age_last', 'age_tail', 'age_range', 'age_reverse', 'age_isempty', 'age_unnest',
        'age_reduce', 'age_reduce_transfn', 'age_left', 'age_right', 'age_substring', 'age_ltrim', 'age_rtrim',
        'age_trim', 'age_replace', 'age_split', 'age_tolower', 'age_toupper', 'age_tostring', 'age_tostringlist',
        'age_toboolean', 'age_tobooleanlist', 'age_tofloat', 'age_tofloatlist', 'age_tointeger',
        'age_tointegerlist', 'age_eq_tilde',
        -- math
        'age_abs', 'age_ceil', 'age_floor', 'age_round', 'age_sign', 'age_sqrt', 'age_exp', 'age_log',
        'age_log10', 'age_e', 'age_pi', 'age_rand', 'age_sin', 'age_cos', 'age_tan', 'age_cot', 'age_asin',
        'age_acos', 'age_atan', 'age_atan2', 'age_radians',
        -- aggregates and their support functions
        'age_collect', 'age_collect_aggtransfn', 'age_collect_aggfinalfn', 'age_sum', 'age_agtype_sum',
        'age_avg', 'age_agtype_float8_accum', 'age_min', 'age_max', 'age_agtype_smaller_aggtransfn',
        'age_agtype_larger_aggtransfn', 'age_stdev', 'age_stdevp', 'age_float8_stddev_samp_aggfinalfn',
        'age_float8_stddev_pop_aggfinalfn', 'age_percentilecont', 'age_percentiledisc',
        'age_percentile_aggtransfn', 'age_percentile_cont_aggfinalfn', 'age_percentile_disc_aggfinalfn',
        -- variable-length MATCH (its start vertices come through the row-level policy; 0010)
        'age_vle', 'age_build_vle_match_edge', 'age_match_vle_edge_to_id_qual', 'age_materialize_vle_edges',
        'age_materialize_vle_path'
    ];
BEGIN
    FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
             WHERE p.pronamespace = 'ag_catalog'::regnamespace AND p.proname = ANY(allowed)
    LOOP
        EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO worldmem_console', f);
    END LOOP;
END
$allow$;

-- The console role is only ever reached by SET ROLE from the app (0006); it never logs in itself.
ALTER ROLE worldmem_console NOLOGIN PASSWORD NULL;
