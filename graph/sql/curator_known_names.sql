-- Which of the message spans (%(spans)s, lower case) name one of the owner's entities: a canonical name
-- or a believed alias valid now, an alias of another chat excepted (%(chat_ns)s: this chat's namespace).
-- The owner's alias "me" is no mention. For the prefilter's "very short turn with an entity mention".
-- Returns: name (lower case)
SELECT name_norm AS name
FROM entities
WHERE owner_sub = wm_owner() AND name_norm = ANY(%(spans)s) AND status = 'active'
UNION
SELECT alias_norm
FROM entity_aliases
WHERE owner_sub = wm_owner() AND alias_norm = ANY(%(spans)s) AND alias_norm <> 'me' AND wm_believed(superseded_at)
  AND wm_during(valid_from, valid_to, clock_timestamp())
  AND (namespace NOT LIKE 'chat:%%' OR namespace = %(chat_ns)s)
