SELECT * FROM ag_catalog.cypher({graph}, {query}, %s) AS ({columns}) LIMIT {limit}
