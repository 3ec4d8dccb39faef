from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """Players as the site knows them: reliability from the phases they held, results, ratings."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "dipserver.players"
    label = "players"

    def ready(self) -> None:
        from dipserver.games.endings import (
            disorder_hook_add,
            game_end_hook_add,
            game_reopen_hook_add,
            phase_open_hook_add,
            seat_taken_hook_add,
        )
        from dipserver.games.join_rules import join_rule_add
        from dipserver.players.gating import rating_minimum_check, reliability_minimum_check
        from dipserver.players.house_bots import bots_play_later, disorder_to_bots
        from dipserver.players.ratings import game_rate, game_unrate
        from dipserver.players.seat_news import seat_taken_tell

        join_rule_add(reliability_minimum_check)
        join_rule_add(rating_minimum_check)
        game_end_hook_add(game_rate)
        game_reopen_hook_add(game_unrate)
        phase_open_hook_add(bots_play_later)
        seat_taken_hook_add(seat_taken_tell)
        disorder_hook_add(disorder_to_bots)
