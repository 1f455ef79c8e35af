SELECT * FROM facts WHERE owner_sub = wm_owner() AND id = %(id)s FOR UPDATE
