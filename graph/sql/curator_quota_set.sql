-- Store the owner's bucket level as of %(at)s (after a refill, and a spend if one was allowed).
UPDATE curator_quota SET level = %(level)s, updated_at = %(at)s
