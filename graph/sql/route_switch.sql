-- route_switch: the copy on %(to)s is verified; from now on the owner lives there (and may write again)
UPDATE owner_routes SET cluster = %(to)s, moving_to = NULL, moving_since = NULL, changed_at = clock_timestamp()
WHERE routed_owner = %(owner)s AND moving_to = %(to)s
RETURNING cluster
