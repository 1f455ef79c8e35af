-- route_forget: an owner deleted entirely needs no route (it would send a new owner of the name elsewhere)
DELETE FROM owner_routes WHERE routed_owner = %(owner)s
