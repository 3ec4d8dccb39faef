"""The read-only database's rules (tests/api/test_read_only.py) on PostgreSQL, whose database is set to
``default_transaction_read_only`` as a failover or maintenance would leave it."""

from __future__ import annotations

import pytest

from tests.api.conftest import game, master, players  # noqa: F401 - the fixtures of those tests
from tests.api.test_read_only import (  # noqa: F401 - collected here too, against PostgreSQL
    england,
    read_only,
    test_a_page_that_writes_answers_a_503_page_with_retry_after,
    test_a_write_answers_503_read_only_with_retry_after_and_changes_nothing,
    test_healthz_says_503_and_that_the_database_is_read_only,
    test_processing_a_phase_meets_an_error_its_task_retries,
    test_token_clients_still_read,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _on_postgresql(postgres_url: str) -> None:
    """Fails under CI, skips elsewhere, unless the tests run on PostgreSQL."""
