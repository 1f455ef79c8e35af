UPDATE world_events SET intent_outcome = %(outcome)s
WHERE owner_sub = wm_owner() AND id = %(id)s AND intent_outcome IS DISTINCT FROM %(outcome)s
RETURNING id
