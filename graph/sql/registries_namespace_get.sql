SELECT namespace, owner_sub, integration
FROM registry_namespaces
WHERE namespace = %(namespace)s
