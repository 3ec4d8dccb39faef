"""A draft's own tests (its ``tests`` table, ``tests/scenarios.toml`` in its package): read, and run by the
engine's scenario runner (``dipserver/engine/scenarios.py``) on the variant the draft's files make, on every
check. Each case comes back green or red with why; a red one is a problem of the check (publishing waits
for it) shown beside the provinces its failure names."""

from __future__ import annotations

from typing import Any

from dipserver.engine import (
    Scenario,
    ScenarioError,
    Variant,
    load_variant_from_sources,
    read_scenarios,
    run_scenarios,
)
from dipserver.studio.errors import StudioError
from dipserver.studio.package import TESTS, variant_files


def draft_scenarios(data: dict[str, Any]) -> tuple[Scenario, ...]:
    """The draft's cases; ``invalid_data`` when its ``tests`` table is in a shape the runner cannot read."""
    tests = data.get(TESTS)
    if tests is None:
        return ()
    if not isinstance(tests, dict):
        raise StudioError("tests is a table: {scenarios: [...]}", code="invalid_data")
    try:
        return read_scenarios(tests)
    except ScenarioError as exc:
        raise StudioError(str(exc), code="invalid_data") from None


def case_of(case: Any) -> Scenario:
    """One case as the editor sends it, to try before it is saved with the draft."""
    return draft_scenarios({TESTS: {"scenarios": [case]}})[0]


def results_of(variant: Variant, cases: tuple[Scenario, ...]) -> list[dict[str, Any]]:
    """Each case run: ``{"name", "passed", "failures"}``, in the order the draft lists them."""
    return [result.as_data() for result in run_scenarios(variant, cases)]


def tests_run(
    slug: str, data: dict[str, Any], cases: tuple[Scenario, ...] | None = None
) -> list[dict[str, Any]]:
    """The draft's tests (or ``cases``) run on the variant its files make; ``check_failed`` when the files
    do not load (the check names why)."""
    cases = draft_scenarios(data) if cases is None else cases
    try:
        variant = load_variant_from_sources(slug, variant_files(slug, data))
    except ValueError as exc:  # VariantError, or a StudioError from files that cannot be written
        raise StudioError(
            f"The draft's files do not load, so its tests cannot run: {exc}", code="check_failed"
        ) from None
    return results_of(variant, cases)
