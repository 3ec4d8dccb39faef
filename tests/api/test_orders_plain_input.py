"""An order PUT's body is read without its serializer when it is plainly one the serializer takes
(``replace_input_plain``): whatever it takes that way, the serializer takes too, giving the same values,
and every body it leaves to the serializer is still answered by it (refusals included)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dipserver.api.orders import MAX_ORDERS, OrdersApi, replace_input_plain

_PHASES = st.one_of(
    st.sampled_from(["S1901M", "f1901r", "W1901A", "S0682M", "S19010M", " S1901M", "S1901M\n", "S1901X"]),
    st.sampled_from(["S1901M", "F1902R"]),
    st.from_regex(r"[SFWsfw\s]\d{0,5}[MRAmra\s]", fullmatch=True),
    st.text(max_size=8),
    st.integers(),
    st.none(),
)
_TEXT = st.one_of(
    st.text(alphabet="ABFHPRSU -/\t\n\r\x00\x0b\x85\u00a0\u2028", max_size=12),
    st.text(alphabet="ABFHPRSU -/", min_size=1, max_size=205),
    st.sampled_from(["A PAR - BUR", " A PAR H ", "", "   ", "a\nb", "x\x00y", "\ud800", "tab\there", "é"]),
    st.text(alphabet=st.characters(codec="ascii"), max_size=210),
    st.text(max_size=12),
)
_ORDERS = st.one_of(
    st.lists(_TEXT, max_size=6),
    st.lists(st.one_of(_TEXT, st.integers(), st.none(), st.booleans()), max_size=4),
    st.just(["A PAR H"] * MAX_ORDERS),
    st.just(["A PAR H"] * (MAX_ORDERS + 1)),
    st.just("A PAR H"),
    st.none(),
)
_LIKELY = st.fixed_dictionaries(
    {
        "phase": st.sampled_from(["S1901M", "f1901r", "W1901A"]),
        "orders": st.lists(st.text(alphabet="ABFHPRSU -/\t\n\u00a0", min_size=1, max_size=12), max_size=4),
    }
)
_BODIES = st.one_of(
    _LIKELY,
    _LIKELY,
    st.fixed_dictionaries({"phase": _PHASES, "orders": _ORDERS}, optional={"extra": st.integers()}),
    st.fixed_dictionaries({}, optional={"phase": _PHASES, "orders": _ORDERS}),
    st.lists(st.integers(), max_size=2),
    st.text(max_size=4),
)


@settings(max_examples=400)
@given(_BODIES)
def test_a_body_read_plainly_is_read_as_the_serializer_reads_it(body):
    plain = replace_input_plain(body)
    serializer = OrdersApi.ReplaceInputSerializer(data=body)
    if plain is None:
        return  # the view asks the serializer, as before
    assert serializer.is_valid(), (body, serializer.errors)
    assert plain == (serializer.validated_data["phase"], serializer.validated_data["orders"])


def test_the_usual_bodies_are_read_plainly():
    body = {"phase": "S1901M", "orders": ["A PAR - BUR", "  F BRE - MAO "]}
    assert replace_input_plain(body) == ("S1901M", ["A PAR - BUR", "F BRE - MAO"])
    assert replace_input_plain({"phase": "S1901M", "orders": []}) == ("S1901M", [])
    stripped = replace_input_plain({"phase": "S1901M", "orders": ["A PAR - BUR\n"]})
    assert stripped == ("S1901M", ["A PAR - BUR"])
    for odd in ({"phase": "S1901M", "orders": ["a\nb"]}, {"phase": "S1901M "}, {"orders": []}, []):
        assert replace_input_plain(odd) is None
