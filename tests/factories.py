"""The one way the tests make people and games: a login, and a game made and joined through the services a
game master and players use (``game_create``, ``game_join``), so a test's game is one a user could have.

    UserFactory(username="master")
    GameFactory(players=users[:7], masters=[master])  # every seat taken: started, powers assigned
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import factory

from dipserver.accounts.models import User
from dipserver.games.models import Game
from dipserver.games.services.games import game_create, game_join

PASSWORD = "a long passphrase 1"


class UserFactory(factory.django.DjangoModelFactory):
    """A login with a password (``PASSWORD``) and no address unless given one."""

    class Meta:
        model = User

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password(PASSWORD)


class GameMasterFactory(UserFactory):
    """A login in the *Game masters* group (not staff): may author and publish studio variants."""

    class Meta:
        skip_postgeneration_save = True

    @factory.post_generation
    def game_master(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        from django.contrib.auth.models import Group

        from dipserver.accounts.roles import GAME_MASTERS_GROUP

        if create:
            self.groups.add(Group.objects.get_or_create(name=GAME_MASTERS_GROUP)[0])


class AdminFactory(UserFactory):
    is_staff = True
    is_superuser = True


class GameFactory(factory.Factory):
    """A game as ``game_create`` makes it, joined by ``players`` in order (at ``joined_at``, else now). With
    as many players as seats the game starts; any other option goes to ``game_create``."""

    class Meta:
        model = Game

    name = "Test game"
    variant = "standard"

    @classmethod
    def _create(
        cls,
        model_class: type[Game],
        *,
        players: Sequence[User] = (),
        joined_at: dt.datetime | None = None,
        **options: Any,
    ) -> Game:
        game = game_create(**options)
        for user in players:
            game_join(game_id=game.id, user=user, now=joined_at)
        game.refresh_from_db()
        return game

    @classmethod
    def _build(cls, model_class: type[Game], *args: Any, **kwargs: Any) -> Game:
        raise TypeError("a game is made by game_create and saved: use GameFactory(...), not .build()")
