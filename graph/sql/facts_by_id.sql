SELECT * FROM facts WHERE id = %(id)s
