"""Results stored before they were records: their records read once from the order text they kept.

A phase processed before records (``dipserver.engine.records``) stored each result as ``power``,
``order`` (text), ``outcome``, ``reason``, ``dislodged``. The data migration that brought records in
(games 0008) and the import of a game exported before it fill in the rest here, reading each text on the
phase's own board, exactly as the pictures used to. This is the one place that reads a result's text;
everything else reads the record's fields (``tests/server/test_results_are_data.py`` holds that).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from dipserver.engine import (
    PLAIN_RECORD_FIELDS,
    OrderError,
    Variant,
    order_record,
    parse_order,
    unread_record,
)
from dipserver.games.mappers import board_of, position_of

Row = dict[str, Any]


def is_plain(row: object) -> bool:
    """A result as stored before records: the old fields and no ``kind``."""
    return isinstance(row, dict) and "kind" not in row and all(k in row for k in PLAIN_RECORD_FIELDS)


def records_filled(rows: Any, variant: Variant, snapshot: Mapping[str, Any]) -> Any:
    """``rows`` with every plain result made a record; the values it had are kept as they were, and
    anything that is not a list of results comes back untouched."""
    if not isinstance(rows, list) or not any(is_plain(r) for r in rows):
        return rows
    board, position = board_of(variant, snapshot), position_of(snapshot)
    filled = []
    for row in rows:
        if not is_plain(row):
            filled.append(row)
            continue
        try:
            order = parse_order(row["order"], board, position, row["power"])
        except OrderError:
            record = unread_record(row["power"], row["order"], row["reason"])
        else:
            record = order_record(row["power"], order, position, outcome=None, text=row["order"], board=board)
        filled.append({**record, **row})  # the stored values win: the record only adds fields
    return filled


def records_stripped(rows: Any) -> Any:
    """``rows`` as they were stored before records (what a rolled-back migration leaves)."""
    if not isinstance(rows, list):
        return rows
    return [_stripped(r) if isinstance(r, dict) and "kind" in r else r for r in rows]


def _stripped(row: Row) -> Row:
    added = {"kind", "unit", "from", "to", "via"}
    return {k: v for k, v in row.items() if k not in added}


def phases_filled(phases: Iterable[Any], variant: Variant) -> list[Any]:
    """The phases (model rows with ``snapshot`` and ``results``) whose results changed, changed in place."""
    changed = []
    for phase in phases:
        filled = records_filled(phase.results, variant, phase.snapshot)
        if filled is not phase.results:
            phase.results = filled
            changed.append(phase)
    return changed
