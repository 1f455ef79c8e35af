-- Entities of the current owner to ask about in bench.http_scale: a fixed order (md5 of the ref), so each
-- run asks about the same entities; active ones only (merged ones answer for their survivor).
SELECT ref, canonical_name AS name
FROM entities
WHERE owner_sub = wm_owner() AND status = 'active'
ORDER BY md5(ref)
LIMIT %(n)s
