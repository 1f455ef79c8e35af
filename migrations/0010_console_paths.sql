-- More for the Cypher console, found by its hostile suite after 0006 (all observed as worldmem_console):
--
-- 1. AGE's path functions read the whole-graph cache, which ignores row-level security.
--    `RETURN ag_catalog.age_shortest_path('worldgraph', <graph id of another owner's vertex>, <another>)`
--    returned the other owner's path with all properties. AGE 1.8 has no shortestPath syntax in Cypher,
--    so only a direct call reaches these two: the app keeps them, nobody else.
--    Cypher's own variable-length MATCH keeps working: it starts from vertices the policy let through
--    and, since an owner's edges only join that owner's vertices, never walks into another owner's.
REVOKE EXECUTE ON FUNCTION ag_catalog.age_shortest_path(ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype,
    ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION ag_catalog.age_all_shortest_paths(ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype,
    ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION
    ag_catalog.age_shortest_path(ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype,
                                 ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype),
    ag_catalog.age_all_shortest_paths(ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype,
                                      ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype)
    TO worldmem_app, worldmem_owner;

-- 2. Functions that run SQL text given to them. From Cypher they turn the console into a SQL console,
--    and in SQL age_vle accepts a made-up start vertex: query_to_xml('SELECT age_materialize_vle_path(edges)
--    FROM age_vle(..., <another owner's vertex>, ...)') returned that owner's paths. The console never
--    needs them; the app keeps them (it does not use them either).
REVOKE EXECUTE ON FUNCTION pg_catalog.query_to_xml(text, boolean, boolean, text),
                           pg_catalog.query_to_xmlschema(text, boolean, boolean, text),
                           pg_catalog.query_to_xml_and_xmlschema(text, boolean, boolean, text),
                           pg_catalog.ts_stat(text),
                           pg_catalog.ts_stat(text, text),
                           pg_catalog.ts_rewrite(tsquery, text)
    FROM PUBLIC;
GRANT EXECUTE ON FUNCTION pg_catalog.query_to_xml(text, boolean, boolean, text),
                          pg_catalog.query_to_xmlschema(text, boolean, boolean, text),
                          pg_catalog.query_to_xml_and_xmlschema(text, boolean, boolean, text),
                          pg_catalog.ts_stat(text),
                          pg_catalog.ts_stat(text, text),
                          pg_catalog.ts_rewrite(tsquery, text)
    TO worldmem_app, worldmem_owner;

-- 3. age_prepare_cypher stores Cypher text in the session for a later `cypher(NULL, NULL)`; on the
--    app's pooled connections a console query could leave text behind for whoever comes next.
REVOKE EXECUTE ON FUNCTION ag_catalog.age_prepare_cypher(cstring, cstring) FROM PUBLIC;
