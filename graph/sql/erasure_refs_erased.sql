-- erasure_refs_erased: which of %(refs)s were erased as entities (the committer refuses writes naming them).
-- Columns: ref
SELECT r AS ref
FROM unnest(%(refs)s::text[]) r
WHERE EXISTS (SELECT 1 FROM erasures x WHERE x.owner_sub = wm_owner() AND x.kind = 'entity'
              AND x.target_hashes @> ARRAY[wm_erasure_hash(r)])
