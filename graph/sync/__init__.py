"""The sync API for integrations: syncEntities (writer), removing an integration (removal)."""
