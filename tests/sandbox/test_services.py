"""The sandbox's services: a tree of positions played by the game server's own adapter, never a game."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from dipserver.games.models import Game, Order, Phase
from dipserver.games.services.orders import orders_submit
from dipserver.sandbox.errors import SandboxError
from dipserver.sandbox.models import Sandbox, Step
from dipserver.sandbox.services import (
    sandbox_copy,
    sandbox_from_game,
    sandbox_from_variant,
    sandbox_update,
    sandboxes_cleanup,
    step_branch,
    step_orders_set,
    step_play,
    step_setup,
)
from tests.factories import GameFactory, UserFactory
from tests.sandbox.positions import step_at

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return UserFactory(username="tinkerer")


def _units(step: Step, power: str) -> list[str]:
    return sorted(f"{u['type']} {u['location']}" for u in step.snapshot["units"] if u["power"] == power)


def test_a_sandbox_from_the_start_holds_the_variants_first_position(owner):
    sandbox = sandbox_from_variant(owner=owner, slug="standard")
    [step] = sandbox.steps.all()
    assert step.snapshot["phase"] == "S1901M"
    assert _units(step, "FRANCE") == ["A MAR", "A PAR", "F BRE"]
    assert step.status == Step.Status.OPEN


def test_orders_are_read_on_the_steps_map_and_only_valid_ones_kept(owner):
    sandbox = sandbox_from_variant(owner=owner, slug="standard")
    lines = step_orders_set(sandbox=sandbox, number=0, power="FRANCE", texts=["a par - bur", "A PAR - MOS"])
    assert [line.valid for line in lines] == [True, False]
    assert Step.objects.get(sandbox=sandbox, number=0).orders == {"FRANCE": ["A PAR - BUR"]}


def test_playing_a_step_adds_the_position_that_follows(owner):
    sandbox = sandbox_from_variant(owner=owner, slug="standard")
    step_orders_set(sandbox=sandbox, number=0, power="FRANCE", texts=["A PAR - BUR"])
    child = step_play(sandbox=sandbox, number=0)
    played = Step.objects.get(sandbox=sandbox, number=0)
    assert played.status == Step.Status.PLAYED
    assert {r["order"]: r["outcome"] for r in played.results if r["power"] == "FRANCE"}[
        "A PAR - BUR"
    ] == "success"
    assert child.parent_id == played.id and child.snapshot["phase"] == "F1901M"
    assert "A BUR" in _units(child, "FRANCE")


def test_a_played_step_takes_no_more_orders_but_can_be_branched(owner):
    sandbox = sandbox_from_variant(owner=owner, slug="standard")
    step_orders_set(sandbox=sandbox, number=0, power="FRANCE", texts=["A PAR - BUR"])
    step_play(sandbox=sandbox, number=0)
    with pytest.raises(SandboxError) as refused:
        step_orders_set(sandbox=sandbox, number=0, power="FRANCE", texts=["A PAR - PIC"])
    assert refused.value.code == "step_played"
    branch = step_branch(sandbox=sandbox, number=0)
    assert branch.number == 2 and branch.parent_id is None and branch.orders == {"FRANCE": ["A PAR - BUR"]}
    step_orders_set(sandbox=sandbox, number=2, power="FRANCE", texts=["A PAR - PIC"])
    other = step_play(sandbox=sandbox, number=2)
    assert "A PIC" in _units(other, "FRANCE")
    assert "A BUR" in _units(Step.objects.get(sandbox=sandbox, number=1), "FRANCE")


def test_setup_places_and_removes_units_and_sets_owners(owner):
    sandbox = sandbox_from_variant(owner=owner, slug="standard")
    step = step_setup(
        sandbox=sandbox,
        number=0,
        place=[{"power": "ENGLAND", "type": "F", "location": "ENG"}],
        remove=["BRE"],
        owners={"BEL": "ENGLAND", "PAR": None},
    )
    assert _units(step, "ENGLAND") == ["A LVP", "F EDI", "F ENG", "F LON"]
    assert _units(step, "FRANCE") == ["A MAR", "A PAR"]
    assert step.snapshot["owners"]["BEL"] == "ENGLAND" and "PAR" not in step.snapshot["owners"]


@pytest.mark.parametrize(
    ("unit", "words"),
    [
        ({"power": "FRANCE", "type": "A", "location": "MAO"}, "cannot stand"),
        ({"power": "FRANCE", "type": "F", "location": "SPA"}, "which coast"),
        ({"power": "NARNIA", "type": "A", "location": "PAR"}, "no power"),
        ({"power": "FRANCE", "type": "A", "location": "XYZ"}, "no province"),
    ],
)
def test_setup_refuses_a_unit_that_cannot_stand_there(owner, unit, words):
    sandbox = sandbox_from_variant(owner=owner, slug="standard")
    with pytest.raises(SandboxError, match=words):
        step_setup(sandbox=sandbox, number=0, place=[unit])


def test_options_and_a_chosen_secret_are_kept(owner):
    sandbox = sandbox_from_variant(
        owner=owner, slug="standard", secret="my secret", options={"supply_lines": True}
    )
    assert sandbox.secret == "my secret"
    assert sandbox.options["supply_lines"]["range"] == 4  # the module's default (Frederick's numbers)
    assert "modules" in sandbox.steps.get().snapshot


@pytest.fixture
def live_game():
    players = [UserFactory(username=f"p{i}") for i in range(7)]
    return GameFactory(players=players, name="Live")


def _seat_user(game: Game, power: str):
    return game.powers.get(name=power).user


def test_a_sandbox_of_a_live_games_open_phase_has_the_viewers_orders_and_no_one_elses(live_game):
    france, germany = _seat_user(live_game, "FRANCE"), _seat_user(live_game, "GERMANY")
    orders_submit(game_id=live_game.id, user=france, text="A PAR - BUR")
    orders_submit(game_id=live_game.id, user=germany, text="A MUN - BUR")
    step = sandbox_from_game(owner=france, game_id=live_game.id).steps.get()
    assert step.orders == {"FRANCE": ["A PAR - BUR"]}
    outsider = UserFactory(username="watcher")
    assert sandbox_from_game(owner=outsider, game_id=live_game.id).steps.get().orders == {}


def test_a_sandbox_of_a_running_game_never_carries_its_secret(live_game):
    sandbox = sandbox_from_game(owner=_seat_user(live_game, "FRANCE"), game_id=live_game.id)
    assert sandbox.secret != live_game.secret


def test_playing_a_sandbox_of_a_game_changes_nothing_in_the_game(live_game):
    france = _seat_user(live_game, "FRANCE")
    orders_submit(game_id=live_game.id, user=france, text="A PAR - BUR")
    sandbox = sandbox_from_game(owner=france, game_id=live_game.id)
    step_orders_set(sandbox=sandbox, number=0, power="GERMANY", texts=["A MUN - BUR"])
    step_play(sandbox=sandbox, number=0)
    assert Phase.objects.filter(game=live_game).count() == 1
    assert list(Order.objects.filter(phase__game=live_game).values_list("text", flat=True)) == ["A PAR - BUR"]


def test_a_processed_phase_comes_with_every_powers_orders_as_played(live_game):
    from dipserver.games.services.phases import phase_process

    france = _seat_user(live_game, "FRANCE")
    orders_submit(game_id=live_game.id, user=france, text="A PAR - BUR")
    phase_process(phase_id=live_game.current_phase_id, now=timezone.now() + dt.timedelta(days=30))
    step = sandbox_from_game(owner=UserFactory(username="student"), game_id=live_game.id, index=0).steps.get()
    assert step.orders["FRANCE"] == ["A PAR - BUR"]
    assert step.snapshot["phase"] == "S1901M"


def test_a_copy_has_every_step_in_the_same_tree(owner):
    sandbox = sandbox_from_variant(owner=owner, slug="standard")
    step_play(sandbox=sandbox, number=0)
    step_branch(sandbox=sandbox, number=0)
    other = UserFactory(username="friend")
    copy = sandbox_copy(sandbox=sandbox, owner=other)
    steps = {s.number: s for s in copy.steps.all()}
    assert copy.owner == other and sorted(steps) == [0, 1, 2]
    assert steps[1].parent_id == steps[0].id and steps[2].branched_from_id == steps[0].id


def test_sharing_makes_an_unguessable_token_and_unsharing_withdraws_it(owner):
    sandbox = sandbox_from_variant(owner=owner, slug="standard")
    token = sandbox_update(sandbox=sandbox, shared=True).share_token
    assert len(token) >= 32
    assert sandbox_update(sandbox=sandbox, shared=False).share_token == ""


def test_an_idle_sandbox_is_announced_first_and_deleted_only_after_the_notice(owner, settings):
    settings.DIPSERVER_SANDBOX_IDLE_DAYS, settings.DIPSERVER_SANDBOX_NOTICE_DAYS = 30, 7
    sandbox = sandbox_from_variant(owner=owner, slug="standard")
    later = timezone.now() + dt.timedelta(days=31)
    assert sandboxes_cleanup(later) == (1, 0)
    assert Sandbox.objects.get(id=sandbox.id).cleanup_noticed_at == later
    assert sandboxes_cleanup(later + dt.timedelta(days=8)) == (0, 1)
    assert not Sandbox.objects.filter(id=sandbox.id).exists()


def test_opening_a_noticed_sandbox_withdraws_the_notice(owner, settings):
    settings.DIPSERVER_SANDBOX_IDLE_DAYS, settings.DIPSERVER_SANDBOX_NOTICE_DAYS = 30, 7
    sandbox = sandbox_from_variant(owner=owner, slug="standard")
    sandboxes_cleanup(timezone.now() + dt.timedelta(days=31))
    sandbox_update(sandbox=sandbox)
    assert Sandbox.objects.get(id=sandbox.id).cleanup_noticed_at is None


def test_a_dislodged_unit_leads_to_a_retreat_step_and_a_winter_to_an_adjustment_step(owner):
    sandbox = sandbox_from_variant(owner=owner, slug="standard")
    step_setup(sandbox=sandbox, number=0, place=[{"power": "GERMANY", "type": "A", "location": "BUR"}])
    step_orders_set(sandbox=sandbox, number=0, power="FRANCE", texts=["A PAR - BUR", "A MAR S A PAR - BUR"])
    retreat = step_play(sandbox=sandbox, number=0)
    assert retreat.snapshot["phase"] == "S1901R"
    assert [d["location"] for d in retreat.snapshot["dislodged"]] == ["BUR"]
    step_orders_set(sandbox=sandbox, number=retreat.number, power="GERMANY", texts=["A BUR R PIC"])
    fall = step_play(sandbox=sandbox, number=retreat.number)
    assert fall.snapshot["phase"] == "F1901M" and "A PIC" in _units(fall, "GERMANY")
    step_orders_set(sandbox=sandbox, number=fall.number, power="FRANCE", texts=["A BUR - BEL"])
    winter = step_play(sandbox=sandbox, number=fall.number)
    assert winter.snapshot["phase"] == "W1901A" and winter.snapshot["owners"]["BEL"] == "FRANCE"
    step_orders_set(sandbox=sandbox, number=winter.number, power="FRANCE", texts=["A PAR B"])
    spring = step_play(sandbox=sandbox, number=winter.number)
    assert spring.snapshot["phase"] == "S1902M" and "A PAR" in _units(spring, "FRANCE")


def test_playing_on_past_a_map_change_gives_the_changed_map_and_its_consequences(owner):
    sandbox = sandbox_from_variant(owner=owner, slug="sahara")
    step_at(sandbox.id, "F1903M", "ITALY F ADR", "AUSTRIA A VIE")
    after = step_play(sandbox=sandbox, number=0)
    played = Step.objects.get(sandbox=sandbox, number=0)
    assert after.snapshot["map"]["terrain"]["ADR"] == "land"
    assert "A ADR" in _units(after, "ITALY")
    assert any(e.get("province") == "ADR" for e in played.events)


def test_a_sandbox_of_a_game_counts_nowhere_in_it_and_tells_nobody(live_game):
    from dipserver.mail.models import Mail
    from dipserver.notices.models import Notification
    from dipserver.webhooks.models import Delivery

    france = _seat_user(live_game, "FRANCE")
    before = list(live_game.powers.values_list("name", "status", "missed_phases", "ready"))
    told = (Mail.objects.count(), Notification.objects.count(), Delivery.objects.count())
    sandbox = sandbox_from_game(owner=france, game_id=live_game.id)
    step_play(sandbox=sandbox, number=0)
    step_play(sandbox=sandbox, number=1)
    assert list(live_game.powers.values_list("name", "status", "missed_phases", "ready")) == before
    live_game.refresh_from_db()
    assert live_game.current_phase.name == "S1901M" and live_game.status == Game.Status.ACTIVE
    assert (Mail.objects.count(), Notification.objects.count(), Delivery.objects.count()) == told
