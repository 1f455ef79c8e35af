-- Which of the candidate refs exist already (any status): a new contact takes the first free one.
SELECT ref FROM entities WHERE owner_sub = wm_owner() AND ref = ANY(%(refs)s)
