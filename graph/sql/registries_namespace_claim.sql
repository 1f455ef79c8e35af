-- Claim a namespace for an owner's integration (first come); returns nothing when it is already claimed.
INSERT INTO registry_namespaces (namespace, owner_sub, integration)
VALUES (%(namespace)s, %(owner_sub)s, %(integration)s)
ON CONFLICT (namespace) DO NOTHING
RETURNING namespace, owner_sub, integration
