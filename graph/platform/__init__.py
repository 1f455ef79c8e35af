"""Platform: settings, the embedded database, migrations and roles."""
