"""The PostgreSQL backend the settings name for a ``postgres://`` DATABASE_URL (see ``base``)."""
