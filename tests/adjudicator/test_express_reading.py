"""The express lane's quick reading of order texts (``_Lane.quick_reading``) held to the canonical reader.

A batch of positions meets thousands of order texts once each, so the lane reads the notation
``format_order`` writes from its own tables, a few times quicker than the engine's canonical reader
(``readings.read_plain``, through ``_Lane._read``). Wherever the quick reading is sure of a text it must
give that reader's reading exactly; it may leave any text to the reader (``_UNSURE``), and must not leave
the common ones (holds, moves to a neighbour, supports, convoys), or it would save nothing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from dipserver.adjudicator import express
from dipserver.engine.variant import VARIANTS_DIR

LANES = [
    lane
    for lane in (express._lane(path.name) for path in sorted(VARIANTS_DIR.iterdir()) if path.is_dir())
    if lane is not None
]
NOT_NAMES = ["XYZ", "par", "STP/XC", "PAR/NC", "ST", "STPX", "LON/", "", "A", "H"]


def _texts(lane: express._Lane, rng: random.Random) -> Iterator[str]:
    """Texts of every canonical shape for every unit text of the board (and some that are not units), to
    every location of the board (and some that are not locations), then the same texts slightly broken."""
    names = sorted(lane.named)
    places = [*names, *NOT_NAMES]
    lands, seas = sorted(lane.lands), sorted(lane.seas)
    units = [*sorted(lane.unit_province), *(f"{kind} {place}" for kind in "AF" for place in names)]
    units += ["A NTH", "F PAR", "A STP/NC", "X PAR", "a PAR", "A  PAR"]
    for unit in units:
        yield f"{unit} H"
        yield f"{unit} D"
        for place in places:
            yield f"{unit} - {place}"
            yield f"{unit} S A {place}"
            yield f"{unit} S F {place}"
        for place in rng.sample(places, 12):
            yield f"{unit} - {place} VIA"
            yield f"{unit} S X {place}"
            for dest in rng.sample(places, 25):
                yield f"{unit} S {rng.choice('AF')} {place} - {dest}"
        for army in rng.sample([*lands, *seas, *NOT_NAMES], 12):
            for dest in rng.sample([*lands, *seas, *NOT_NAMES], 12):
                yield f"{unit} C A {army} - {dest}"
                yield f"{unit} C F {army} - {dest}"


def _broken(text: str, rng: random.Random) -> str:
    words = text.split(" ")
    pick = rng.randrange(6)
    if pick == 0:
        return " " + text
    if pick == 1:
        return text + " "
    if pick == 2:
        return text.lower()
    if pick == 3:
        return text.replace(" ", "  ", 1)
    if pick == 4:
        return text.replace(" ", "\t", 1)
    return " ".join(words[:-1])


@pytest.mark.parametrize("lane", LANES, ids=[lane.slug for lane in LANES])
def test_the_quick_reading_gives_the_canonical_readers_reading_wherever_it_is_sure(
    lane: express._Lane,
) -> None:
    rng = random.Random(3)
    sure = unsure = 0
    for text in _texts(lane, rng):
        for candidate in (text, _broken(text, rng)):
            quick = lane.quick_reading(candidate)
            if quick is express._UNSURE:
                unsure += 1
                continue
            sure += 1
            assert quick == lane._read(candidate), candidate
    assert sure > 5_000 and unsure > 100_000, (sure, unsure)


@pytest.mark.parametrize("lane", LANES, ids=[lane.slug for lane in LANES])
def test_the_quick_reading_is_sure_of_every_hold_move_to_a_neighbour_support_and_convoy(
    lane: express._Lane,
) -> None:
    board = lane.board
    sure = 0
    for unit, prov in lane.occupiable.items():
        texts = [f"{unit} H", *(f"{unit} - {dest}" for dest in lane.reach[unit])]
        for other, there in lane.occupiable.items():
            if there == prov:
                continue
            if there in lane.supportable[unit]:
                texts.append(f"{unit} S {other}")
            for dest in lane.reach[other]:
                into = dest.partition("/")[0]
                if into != prov and into in lane.supportable[unit]:
                    texts.append(f"{unit} S {other} - {into}")
        if unit[0] == "F" and prov in lane.seas:
            coasts = sorted(p for p in board.neighbours(prov) if p in lane.lands)
            texts += [f"{unit} C A {a} - {b}" for a in coasts for b in sorted(lane.lands) if a != b]
        for text in texts:
            quick = lane.quick_reading(text)
            assert quick is not express._UNSURE, text
            assert quick == lane._read(text), text
            sure += 1
    assert sure > 5_000


def test_the_quick_reading_leaves_moves_by_sea_to_the_canonical_reader() -> None:
    lane = express._lane("standard")
    assert lane is not None
    for text in ("A LON - NWY", "A LON - NWY VIA", "A LON - BEL VIA", "A LON - WAL VIA"):
        assert lane.quick_reading(text) is express._UNSURE, text
        reading = lane.reading(text)
        assert reading is not None and reading[0] == express._BY_SEA, text
    assert lane.reading("A LON - WAL") == (express._MOVE, "LON", "A LON", "WAL", "A WAL", None, "A LON - WAL")
