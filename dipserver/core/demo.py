"""Demo data for `./dip serve`: logins now, demo games once the games app registers a seeder.

The games app (built separately) calls :func:`register_demo_games_seeder` from its ``AppConfig.ready``
with a function that creates one demo game per variant. Until then seeding games is a no-op.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import Group
from django.db import transaction

from dipserver.accounts.models import User
from dipserver.accounts.roles import GAME_MASTERS_GROUP


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str
    role: str  # "game master" or "player"


# Public, printed by `./dip serve`: these logins exist only in local demo databases.
GAME_MASTER = DemoLogin("gm", "gm-password", "game master")
PLAYERS = tuple(DemoLogin(name, f"{name}-password", "player") for name in ("alice", "bob", "carol", "dave"))

DemoGamesSeeder = Callable[..., Sequence[str]]
"""Called as ``seeder(game_master=User, players=[User, ...])``; returns a line per demo game it ensured."""

_seeders: list[DemoGamesSeeder] = []


def register_demo_games_seeder(seeder: DemoGamesSeeder) -> DemoGamesSeeder:
    """Register a function that creates demo games (idempotently). Usable as a decorator."""
    if seeder not in _seeders:
        _seeders.append(seeder)
    return seeder


def demo_games_seeders() -> tuple[DemoGamesSeeder, ...]:
    return tuple(_seeders)


@transaction.atomic
def demo_logins_ensure() -> tuple[User, list[User]]:
    """Create or reset the demo logins; running it again changes nothing but forgotten passwords."""
    game_masters, _ = Group.objects.get_or_create(name=GAME_MASTERS_GROUP)

    gm = _user_ensure(GAME_MASTER, is_staff=True, is_superuser=True)
    gm.groups.add(game_masters)
    players = [_user_ensure(login, is_staff=False, is_superuser=False) for login in PLAYERS]
    return gm, players


def demo_games_ensure(*, game_master: User, players: Sequence[User]) -> list[str]:
    """Run every registered demo-games seeder; an empty list means no seeder is registered yet."""
    lines: list[str] = []
    for seeder in _seeders:
        lines.extend(seeder(game_master=game_master, players=list(players)))
    return lines


def _user_ensure(login: DemoLogin, *, is_staff: bool, is_superuser: bool) -> User:
    user, _ = User.objects.get_or_create(username=login.username)
    user.email = f"{login.username}@example.invalid"
    user.is_active = True
    user.is_staff = is_staff
    user.is_superuser = is_superuser
    if not user.check_password(login.password):
        user.set_password(login.password)
    user.save()
    return user
