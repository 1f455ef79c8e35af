-- Who holds each of the given identities now: believed aliases in (namespace, value) pairs, each with the
-- entity it names followed to its survivor (wm_survivor, merges as of now). Columns: namespace, alias_norm,
-- id, ref, kind, canonical_name, created_at (of the survivor).
-- Laterals with LIMIT on purpose: each pair is one lookup in the believed-alias index (owner_sub,
-- namespace, alias_norm) and each survivor one primary-key lookup. Written as a join (or as laterals
-- the planner flattens), it read all of the owner's aliases and entities through the owner-only part of
-- the trigram GiST indexes, since an owner's share is estimated at 0.5 %% (0036): 44 ms at 1,000 contacts
-- in bench.domains_bench. The values come normalised and lower-case (graph.domains.identities): lower() on
-- the parameter made the planner pick the trigram GiST index (2 ms a lookup) over the unique btree (0.03 ms).
SELECT q.ns AS namespace, a.alias_norm, e.id, e.ref, e.kind, e.canonical_name, e.created_at
FROM unnest(%(namespaces)s::text[], %(aliases)s::text[]) AS q(ns, al)
CROSS JOIN LATERAL (
    SELECT x.alias_norm, wm_survivor(x.entity_id, NULL) AS survivor_id
    FROM entity_aliases x
    WHERE x.owner_sub = wm_owner() AND x.namespace = q.ns AND x.alias_norm = q.al AND wm_believed(x.superseded_at)
      -- held now: a number given up names nobody, so a new contact may take it over (migration 0131: one holding
      -- per instant); the LIMIT keeps the planner from flattening the lateral
      AND wm_during(x.valid_from, x.valid_to, now())
    LIMIT 1
) a
CROSS JOIN LATERAL (
    SELECT y.id, y.ref, y.kind, y.canonical_name, y.created_at
    FROM entities y
    WHERE y.owner_sub = wm_owner() AND y.id = a.survivor_id
    LIMIT 1
) e
ORDER BY q.ns, a.alias_norm
