from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """Players as the site knows them: reliability from the phases they held, results, ratings."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "dipserver.players"
    label = "players"
