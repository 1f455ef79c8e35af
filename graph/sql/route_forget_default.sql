-- route_forget_default: an owner back on the default cluster needs no row (the default for every owner)
DELETE FROM owner_routes WHERE routed_owner = %(owner)s AND cluster = %(default)s AND moving_to IS NULL
