-- The first level of neighbors(%(ref)s) for %(owner)s in ONE statement that pins its owner itself
-- (Database.read_pinned): wm_read_neighbors_first (graph/sql/functions/), whose body is traversal_first.sql with
-- cypher/neighbors_first.cypher composed in; the Cypher values travel in %(graph)s, cypher()'s parameter map.
-- Rows as traversal_first.sql's: the head (part 0) first, then the edges (WITH ORDINALITY keeps the order).
SELECT * FROM wm_read_neighbors_first(%(owner)s, %(ref)s, %(system_time)s, %(graph)s::ag_catalog.agtype,
                                      %(all_types)s) WITH ORDINALITY AS r ORDER BY r.ordinality
