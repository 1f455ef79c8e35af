-- route_abandon: a move that failed its check ends; the owner stays where it was and may write again
UPDATE owner_routes SET moving_to = NULL, moving_since = NULL, changed_at = clock_timestamp()
WHERE routed_owner = %(owner)s
