"""Reading sandboxes: the tree of steps without their positions, and who may see a sandbox."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dipserver.sandbox.errors import SandboxError
from dipserver.sandbox.selectors import sandbox_seen, step_tree, steps_of
from dipserver.sandbox.services import sandbox_from_variant, sandbox_update, step_branch, step_play
from dipserver.sandbox.tasks import cleanup_sweep
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return UserFactory(username="reader")


def test_the_tree_of_steps_is_read_in_one_query_without_the_positions(owner):
    sandbox = sandbox_from_variant(owner=owner, slug="standard")
    step_play(sandbox=sandbox, number=0)
    step_branch(sandbox=sandbox, number=0)
    with CaptureQueriesContext(connection) as queries:
        tree = step_tree(steps_of(sandbox))
    assert len(queries) == 1 and "snapshot" not in queries[0]["sql"]
    assert tree == [
        {
            "number": 0,
            "phase": "S1901M",
            "status": "played",
            "parent": None,
            "branched_from": None,
            "children": [1],
        },
        {
            "number": 1,
            "phase": "F1901M",
            "status": "open",
            "parent": 0,
            "branched_from": None,
            "children": [],
        },
        {
            "number": 2,
            "phase": "S1901M",
            "status": "open",
            "parent": None,
            "branched_from": 0,
            "children": [],
        },
    ]


def test_only_the_owner_or_the_share_token_sees_a_sandbox(owner):
    sandbox = sandbox_from_variant(owner=owner, slug="standard")
    assert sandbox_seen(sandbox_id=sandbox.id, user=owner) == (sandbox, True)
    stranger = UserFactory(username="stranger")
    with pytest.raises(SandboxError) as hidden:
        sandbox_seen(sandbox_id=sandbox.id, user=stranger)
    assert hidden.value.code == "not_found"
    token = sandbox_update(sandbox=sandbox, shared=True).share_token
    assert sandbox_seen(sandbox_id=sandbox.id, user=stranger, token=token) == (sandbox, False)


def test_the_cleanup_task_asks_the_service(owner):
    sandbox_from_variant(owner=owner, slug="standard")
    assert cleanup_sweep() == [0, 0]  # used just now: nothing to notice or delete
