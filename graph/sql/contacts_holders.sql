-- Who holds each of the given identities now: believed aliases in (namespace, value) pairs, each with the
-- entity it names followed to its survivor (wm_survivor, merges as of now). Columns: namespace, alias_norm,
-- id, ref, kind, canonical_name, created_at (of the survivor). The unique believed-alias index
-- (owner_sub, namespace, alias_norm) answers each pair.
SELECT q.ns AS namespace, a.alias_norm, e.id, e.ref, e.kind, e.canonical_name, e.created_at
FROM unnest(%(namespaces)s::text[], %(aliases)s::text[]) AS q(ns, al)
JOIN entity_aliases a
  ON a.owner_sub = wm_owner() AND a.namespace = q.ns AND a.alias_norm = lower(q.al) AND a.superseded_at IS NULL
JOIN entities e ON e.owner_sub = wm_owner() AND e.id = wm_survivor(a.entity_id, NULL)
ORDER BY q.ns, a.alias_norm
