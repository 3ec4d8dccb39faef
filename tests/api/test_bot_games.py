"""The reference bot plays a whole game of every variant through the API, in-process: Celery runs the
processing task eagerly once each phase's transaction commits, exactly as the worker would."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dipserver.bot import Reply, choose_orders, play
from dipserver.engine.variant import load_variant
from dipserver.games.models import Game, Order, Phase, Power
from tests.api.bots import TestClientTransport, bots_for_a_new_game

VARIANTS = ["standard", "wall_of_ice", "deluge", "sahara"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("variant", VARIANTS)
def test_bots_play_a_whole_game_through_the_api(variant, settings):
    settings.DIPSERVER_API_THROTTLES = {"login": "1000/min", "register": "1000/min", "writes": "10000/min"}
    info = load_variant(variant)
    end_year = info.start.phase.year + 1
    bots = bots_for_a_new_game(variant, len(info.powers), end_year=end_year)
    play(bots, poll_seconds=0, timeout=300)

    game = Game.objects.get(id=bots[0].game_id)
    assert game.status == Game.Status.FINISHED
    phases = list(Phase.objects.filter(game=game).order_by("index"))
    assert all(p.status == Phase.Status.PROCESSED for p in phases)
    assert phases[-1].name.startswith(("S", "W", "F"))
    played = [p for p in phases if p.orders]
    assert len(played) >= 2
    # Every order came from the options endpoint and was accepted on submission (the bot stops on any
    # 4xx). The adjudicator may still judge a few invalid: the options offer a support of a move convoyed
    # by the supporting fleet itself (F BLA S A CON - SEV), reported to the engine's owners.
    submitted = sum(len(texts) for p in phases for texts in p.orders.values())
    invalid = [r for p in phases for r in p.results if r["outcome"] == "invalid"]
    assert submitted > 0 and len(invalid) <= submitted // 10, invalid
    assert {bot.finished for bot in bots} == {True}


def test_choices_are_seeded_and_legal():
    options = {
        "adjustment": 0,
        "units": {
            "LON": [{"text": "F LON H", "kind": "hold"}, {"text": "F LON - NTH", "kind": "move"}],
            "PAR": [{"text": "A PAR H", "kind": "hold"}],
        },
        "builds": [],
    }
    first = choose_orders(options, random.Random("x"))
    assert first == choose_orders(options, random.Random("x"))
    assert first[1] == "A PAR H" and first[0] in {"F LON H", "F LON - NTH"}


def test_builds_use_each_province_once_and_disbands_only_what_is_due():
    builds = {
        "adjustment": 2,
        "units": {},
        "builds": [
            {"text": "A STP", "kind": "build", "location": "STP"},
            {"text": "F STP/NC", "kind": "build", "location": "STP/NC"},
            {"text": "F STP/SC", "kind": "build", "location": "STP/SC"},
            {"text": "WAIVE", "kind": "waive"},
        ],
    }
    for seed in range(20):
        chosen = choose_orders(builds, random.Random(seed))
        assert len(chosen) == 2
        assert sum("STP" in c for c in chosen) <= 1
    disbands = {"adjustment": -1, "units": {"LON": [{"text": "F LON D"}], "PAR": [{"text": "A PAR D"}]}}
    assert len(choose_orders(disbands, random.Random(0))) == 1


@pytest.mark.parametrize(
    ("units", "owned"),
    [
        (["A PAR", "A BUR"], ["PAR", "MAR", "BRE", "SPA", "POR"]),  # 3 due, 2 homes free: 1 elsewhere
        (["A PAR", "A BUR", "A PIC"], ["PAR", "MAR", "BRE", "SPA", "POR"]),  # 2 due: homes only
        ([], ["PAR", "MAR", "BRE", "SPA", "POR", "MUN", "BER", "KIE"]),  # 8 due: at most 3 elsewhere
    ],
)
def test_the_bots_deluge_builds_are_all_accepted(units, owned):
    # Deluge (E13) builds in the free home centres first, then at most three elsewhere: a bot that picked
    # at random among the builds offered had "A SPA B" refused while MAR was still free, in whichever
    # game its seed (which names the game) led there.
    from dipserver.engine.board import board_for
    from dipserver.engine.options import legal_options
    from dipserver.engine.position import Position
    from dipserver.engine.timeline import Hook, walk
    from dipserver.engine.turn import play_phase
    from dipserver.engine.types import Phase, Unit, UnitType

    deluge = load_variant("deluge")
    state = deluge.map_state  # the map of W1902A: every change up to Winter 1902's adjustments
    for year, hook, step in walk(deluge, {}):
        if (year, hook) == (1902, Hook.AFTER_WINTER_ADJUSTMENTS):
            break
        state = step.map_state
    placed = {u.split()[1]: Unit("FRANCE", UnitType(u.split()[0]), u.split()[1]) for u in units}
    start = Position(Phase.parse("W1902A"), placed, dict.fromkeys(owned, "FRANCE"))
    options = legal_options(board_for(deluge, state), start, "FRANCE").to_data()
    for seed in range(40):
        orders = choose_orders(options, random.Random(seed))
        built = [o.split()[1][:3] for o in orders if o != "WAIVE"]
        assert len(orders) <= options["adjustment"] and len(built) == len(set(built)), orders
        if options["adjustment"] >= len(options["builds_first"]):
            assert set(options["builds_first"]) <= set(built), orders
        turn = play_phase(deluge, state, start, {"FRANCE": orders})
        refused = [r for r in turn.results if r["outcome"] != "success"]
        assert not refused, (seed, orders, refused)


class _PlayerWritesFirst(TestClientTransport):
    """The bot's player withdraws their orders in the browser just before the bot's own write arrives."""

    def __init__(self) -> None:
        super().__init__()
        self.interfered = False

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> Reply:
        if method == "PUT" and path.endswith("/orders") and not self.interfered:
            self.interfered = True
            auth = {"Authorization": (headers or {})["Authorization"]}
            assert super().request("PUT", path, {"phase": body["phase"], "orders": []}, auth).status == 200
        return super().request(method, path, body, headers)


@pytest.mark.django_db
def test_the_bot_never_overwrites_orders_its_player_gave_meanwhile(settings):
    settings.DIPSERVER_API_THROTTLES = {"login": "1000/min", "register": "1000/min", "writes": "10000/min"}
    bots = bots_for_a_new_game("standard", 7)
    meddled = _PlayerWritesFirst()
    meddled.client = bots[0].api.transport.client  # the same session and login
    bots[0].api.transport = meddled
    assert bots[0].step() is False  # 412: it looks again rather than overwriting
    seat = Power.objects.get(game_id=bots[0].game_id, user__username=bots[0].username)
    assert meddled.interfered and not Order.objects.filter(power=seat).exists() and seat.ready is False
