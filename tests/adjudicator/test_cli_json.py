"""The command line's JSON: orjson where it is installed, the stdlib where it is not or where orjson refuses.

Both give the same JSON value for every answer, on ordinary requests and on the inputs where the two libraries
differ (NaN and Infinity, numbers beyond a double or 64 bits, a byte order mark, lone surrogates, bytes that
are not UTF-8); none of them ever raises. orjson writes non-ASCII characters as UTF-8, the stdlib as \\uXXXX.
"""

from __future__ import annotations

import gc
import io
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from dipserver.adjudicator import batch as batches
from dipserver.adjudicator import cli, codec
from tests.adjudicator.command_line import python, request

BIG = "123456789012345678901234567890"  # beyond 64 bits: orjson reads it as a float, the stdlib as an int


def opening() -> str:
    orders = {"FRANCE": ["A PAR - BUR", "F BRE - MAO"], "GERMANY": ["A MUN - BUR"], "ITALY": ["A VEN H"]}
    return json.dumps(request(orders=orders))


def replace(old: str, new: str) -> str:
    text = opening()
    assert old in text
    return text.replace(old, new, 1)


# Request lines (bytes) on which orjson and the stdlib differ, or which are not JSON at all.
ODD: dict[str, bytes] = {
    "NaN in an order list": replace('"A VEN H"', "NaN").encode(),
    "Infinity as the phase": replace('"S1901M"', "Infinity").encode(),
    "-Infinity as an extra field": (opening()[:-1] + ', "x": -Infinity}').encode(),
    "a number beyond a double": replace('"S1901M"', "1e400").encode(),
    "an int beyond 64 bits in an order list": replace('"A VEN H"', BIG).encode(),
    "an int beyond 64 bits as a unit": replace('"A BUD"', BIG).encode(),
    "an int beyond 64 bits as the variant": replace('"standard"', BIG).encode(),
    "an int beyond 64 bits as the dislodged": (
        opening()[:-1] + f', "dislodged": {{"FRANCE": {BIG}}}}}'
    ).encode(),
    "a byte order mark": "\ufeff".encode() + opening().encode(),
    "a lone surrogate in an order text": replace('"A VEN H"', '"A VEN H\\ud800"').encode(),
    "a lone low surrogate as an order text": replace('"A VEN H"', '"\\udc00"').encode(),
    "a lone surrogate in a power name": replace('"ITALY": ["A VEN', '"IT\\ud83dALY": ["A VEN').encode(),
    "a surrogate pair in an order text": replace('"A VEN H"', '"A VEN H \\ud83d\\ude00"').encode(),
    "non-ASCII in an order text": replace('"A VEN H"', '"A VEN \u2013 H é"').encode(),
    "non-ASCII as the variant": replace('"standard"', '"stándard"').encode(),
    "bytes that are not UTF-8": replace('"A VEN H"', '"A VEN H \xff"').encode("latin-1"),
    "a truncated object": b'{"variant": "standard", ',
    "not JSON at all": b"A PAR - BUR",
    "an empty line": b"\n",
    "a blank line": b"  \t \n",
    "a JSON string": b'"S1901M"',
    "a JSON list": b"[1, 2]",
}


@pytest.fixture(autouse=True)
def unfrozen() -> Iterator[None]:
    """A batch freezes what its first answer built (for a process that lives as long as the batch); give
    the rest of the test session's objects back to the collector."""
    yield
    gc.unfreeze()


@pytest.fixture
def stdlib_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The command line as on a bare checkout: ``import orjson`` fails."""
    codec._use_codec()  # orjson's, if installed: the one to put back afterwards
    monkeypatch.setitem(sys.modules, "orjson", None)
    loads, encode = codec._codec()
    monkeypatch.setattr(codec, "_loads", loads)
    monkeypatch.setattr(codec, "_encode", encode)
    yield


def batch(lines: list[bytes]) -> bytes:
    out = io.BytesIO()
    batches.answer_lines(lines, out, flush=False)
    return out.getvalue()


def test_without_orjson_the_codec_is_the_stdlibs(stdlib_only: None) -> None:
    assert codec._loads is codec._stdlib_loads
    assert codec._encode is codec._stdlib_encode


def test_with_orjson_the_codec_is_orjsons() -> None:
    pytest.importorskip("orjson")
    assert codec._use_codec() is codec._encode
    assert codec._loads is not codec._stdlib_loads
    assert codec._encode is not codec._stdlib_encode


def stdlib_batch(lines: list[bytes]) -> bytes:
    codec._use_codec()
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(sys.modules, "orjson", None)
        loads, encode = codec._codec()
        patch.setattr(codec, "_loads", loads)
        patch.setattr(codec, "_encode", encode)
        return batch(lines)


def ordinary() -> list[bytes]:
    """Movement requests, canonical texts and others that only the full parser reads."""
    lines = [opening().encode()]
    answer = cli.answer_text(lines[0])
    lines.append(json.dumps({**answer["next"], "orders": {}}).encode())
    lines.append(json.dumps(request(orders={"FRANCE": ["A PAR-BUR", "F BRE-MAO"]})).encode())
    lines.append(
        json.dumps(request(orders={"ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"]})).encode()
    )
    return lines


def test_both_paths_write_the_same_bytes_for_ordinary_requests() -> None:
    pytest.importorskip("orjson")
    lines = ordinary()
    fast = batch(lines)
    assert fast == stdlib_batch(lines)
    assert len(fast.splitlines()) == len(lines)
    assert all("error" not in json.loads(line) for line in fast.splitlines())


@pytest.mark.parametrize("line", ODD.values(), ids=ODD.keys())
def test_odd_input_gets_the_same_answer_on_both_paths(line: bytes) -> None:
    """The same JSON value on both paths (the stdlib's is what the command always answered), one line each,
    and valid JSON text the stdlib reads back; never a traceback."""
    pytest.importorskip("orjson")
    fast, slow = batch([line]), stdlib_batch([line])
    assert fast.endswith(b"\n") and fast.count(b"\n") == 1
    assert slow.endswith(b"\n") and slow.count(b"\n") == 1
    assert json.loads(fast) == json.loads(slow)
    assert slow.isascii()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("NaN in an order list", '"orders" of ITALY must be a list of strings'),
        ("Infinity as the phase", '"phase" is required'),
        ("a number beyond a double", '"phase" is required'),
        ("an int beyond 64 bits in an order list", '"orders" of ITALY must be a list of strings'),
        ("an int beyond 64 bits as a unit", '"units" of AUSTRIA must be a list of strings'),
        ("a lone surrogate in a power name", "unknown power 'IT\\ud83dALY'"),
        ("non-ASCII as the variant", "unknown or broken variant 'stándard'"),
        ("bytes that are not UTF-8", "not valid JSON: 'utf-8' codec can't decode byte 0xff"),
        ("a truncated object", "not valid JSON: Expecting property name enclosed in double quotes"),
        ("not JSON at all", "not valid JSON: Expecting value: line 1 column 1 (char 0)"),
        ("an empty line", "empty request"),
        ("a blank line", "empty request"),
        ("a JSON string", "a request is a JSON object"),
    ],
)
def test_odd_input_that_is_refused_gets_an_informative_error(name: str, message: str) -> None:
    """Where orjson refuses a line the stdlib refuses too, the stdlib's message is the one given."""
    answer = json.loads(batch([ODD[name]]))
    assert message in answer["error"]


def test_what_the_stdlib_reads_and_orjson_does_not_is_answered_as_before() -> None:
    """A byte order mark, and lone surrogates: the stdlib reads them, so the request is adjudicated; an order
    text with a lone surrogate comes back as given, written by the stdlib as a \\u escape."""
    bom = json.loads(batch([ODD["a byte order mark"]]))
    assert bom["results"]["FRANCE"] == {"A PAR - BUR": "bounce", "F BRE - MAO": "success"}
    line = batch([ODD["a lone surrogate in an order text"]])
    assert line.isascii() and b'"A VEN H\\ud800":"invalid"' in line
    assert "A VEN H\ud800" in json.loads(line)["results"]["ITALY"]


def test_orjson_writes_non_ascii_as_utf8_and_the_stdlib_as_escapes() -> None:
    pytest.importorskip("orjson")
    line = ODD["non-ASCII in an order text"]
    fast, slow = batch([line]), stdlib_batch([line])
    assert '"A VEN \u2013 H é":"invalid"'.encode() in fast
    assert b'"A VEN \\u2013 H \\u00e9":"invalid"' in slow
    assert json.loads(fast) == json.loads(slow)
    pair = batch([ODD["a surrogate pair in an order text"]])
    assert "A VEN H \U0001f600".encode() in pair


def test_answers_go_to_a_text_stream_without_a_buffer_too() -> None:
    """``main`` with a StringIO (no ``.buffer``): the same answers, as text."""
    lines = [*ordinary(), ODD["non-ASCII in an order text"], ODD["not JSON at all"]]
    out = io.StringIO()
    status = cli.main(["adjudicate", "--jsonl"], io.BytesIO(b"\n".join(lines) + b"\n"), out)
    assert status == 0
    assert out.getvalue().encode() == batch(lines)
    single = io.StringIO()
    assert cli.main(["adjudicate"], io.BytesIO(lines[0]), single) == 0
    assert json.loads(single.getvalue()) == json.loads(batch(lines[:1]))


@pytest.mark.parametrize("pretty", [False, True])
def test_a_single_requests_answer_is_the_stdlibs(pretty: bool) -> None:
    """As it always was: ``json.dumps``, indented with ``--pretty``, non-ASCII as escapes."""
    line = ODD["non-ASCII in an order text"]
    out = io.StringIO()
    assert cli.main(["adjudicate", *(["--pretty"] if pretty else [])], io.BytesIO(line), out) == 0
    assert out.getvalue() == json.dumps(json.loads(batch([line])), indent=2 if pretty else None) + "\n"
    assert out.getvalue().isascii()


def test_one_request_does_not_import_orjson() -> None:
    """orjson's import costs more than one request's JSON saves; a batch imports it, one request does not."""
    check = (
        "import io, sys; from dipserver.adjudicator import cli; "
        "cli.main(['adjudicate'], io.BytesIO(sys.stdin.buffer.read()), io.StringIO()); "
        "print('orjson' in sys.modules)"
    )
    done = python("-c", check, stdin=opening().encode())
    assert done.stdout == b"False\n"


def command(*prefix: str) -> Callable[[bytes], bytes]:
    def answers(lines: bytes) -> bytes:
        done = python(*prefix, "adjudicate", "--jsonl", stdin=lines)
        assert done.stderr == b""
        return done.stdout

    return answers


def test_the_command_runs_without_orjson_and_answers_the_same_values() -> None:
    """A whole process where ``import orjson`` fails: the same values, line for line, as with orjson."""
    without = (
        "import sys; sys.modules['orjson'] = None; "
        "from dipserver.adjudicator.cli import main; sys.exit(main())"
    )
    lines = b"".join(line.rstrip(b"\n") + b"\n" for line in [*ordinary(), *ODD.values()])
    slow = command("-c", without)(lines).splitlines()
    fast = command("-m", "dipserver.adjudicator")(lines).splitlines()
    assert len(slow) == len(fast) == lines.count(b"\n")
    assert [json.loads(line) for line in slow] == [json.loads(line) for line in fast]
    assert all(line.isascii() for line in slow)


@pytest.mark.parametrize("enabled", [True, False])
def test_a_batch_leaves_the_collector_as_it_found_it(enabled: bool) -> None:
    """Off for the first answer (start-up), then frozen and back on, or still off if it was off."""
    lines = ordinary()
    want = batch(lines)
    gc.unfreeze()
    if not enabled:
        gc.disable()
    try:
        assert batch(lines) == want
        assert gc.isenabled() is enabled
        assert gc.get_freeze_count() > 0
    finally:
        gc.enable()


def test_the_collector_comes_back_on_when_the_first_answer_fails_to_be_written() -> None:
    class Broken(io.BytesIO):
        def write(self, data: Any) -> int:
            raise BrokenPipeError

    with pytest.raises(BrokenPipeError):
        batches.answer_lines(ordinary(), Broken(), flush=False)
    assert gc.isenabled()
