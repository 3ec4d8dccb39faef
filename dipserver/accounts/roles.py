"""Names of the roles a login can have."""

GAME_MASTERS_GROUP = "Game masters"
