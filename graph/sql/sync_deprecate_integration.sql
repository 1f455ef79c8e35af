-- sync_deprecate_integration: deprecate the kinds and predicates of the owner's integration (a function of
-- wm_deprecate_integration; only the namespace this owner's integration claimed). Columns: key, what.
SELECT key, what FROM wm_deprecate_integration(%(name)s)
