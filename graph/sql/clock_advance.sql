UPDATE owner_clock SET last_recorded_at = greatest(last_recorded_at, %(at)s) WHERE owner_sub = wm_owner()
