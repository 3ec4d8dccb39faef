"""Demo games for `./dip serve`: one per variant, mastered by the demo game master."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dipserver.engine.variant import VARIANTS_DIR
from dipserver.games.models import Game
from dipserver.games.services.games import game_create, game_join


def demo_games_seed(*, game_master: Any, players: Sequence[Any]) -> list[str]:
    """Create the demo games that do not exist yet; running it again changes nothing."""
    lines = []
    for slug in sorted(p.name for p in VARIANTS_DIR.iterdir() if (p / "variant.toml").is_file()):
        name = f"Demo: {slug.replace('_', ' ').title()}"
        game = Game.objects.filter(name=name).first()
        if game is None:
            game = game_create(name=name, variant=slug, created_by=game_master, masters=[game_master])
            for user in players:
                game_join(game_id=game.id, user=user)
        lines.append(
            f"{game.name} (#{game.id}, {game.get_status_display().lower()}, {len(players)} players joined)"
        )
    return lines
