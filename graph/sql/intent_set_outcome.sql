-- Compare-and-set: the outcome changes only if it is still the one the judgement was based on, so a
-- reconciler pass that read an older outcome cannot overwrite a newer one (0 rows = someone was first).
UPDATE world_events SET intent_outcome = %(outcome)s
WHERE owner_sub = wm_owner() AND id = %(id)s AND intent_outcome IS DISTINCT FROM %(outcome)s
  AND intent_outcome IS NOT DISTINCT FROM %(previous)s
RETURNING id
