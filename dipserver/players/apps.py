from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """Players as the site knows them: reliability from the phases they held, results, ratings."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "dipserver.players"
    label = "players"

    def ready(self) -> None:
        from dipserver.games.endings import game_end_hook_add
        from dipserver.games.join_rules import join_rule_add
        from dipserver.players.gating import rating_minimum_check, reliability_minimum_check
        from dipserver.players.ratings import game_rate

        join_rule_add(reliability_minimum_check)
        join_rule_add(rating_minimum_check)
        game_end_hook_add(game_rate)
