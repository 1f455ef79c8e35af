SELECT id, ref FROM entities WHERE owner_sub = wm_owner() AND status = 'active' ORDER BY random() LIMIT %(n)s
