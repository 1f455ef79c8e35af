SELECT last_recorded_at, clock_timestamp() AS now FROM owner_clock WHERE owner_sub = wm_owner() FOR UPDATE
