r"""JSON in and out of ``adjudicate``: one request's text to its answer, every failure an ``{"error": ...}``.

JSON in and out of a batch is a good part of its time, so the batch uses orjson (compiled; decodes about
a third faster and encodes three times faster) and falls back to the stdlib where orjson says no or is not
installed. The stdlib stays the reference: a line orjson rejects is decoded again by ``json.loads``, which
either gives the message the answer has always carried or accepts what orjson will not (a BOM, NaN or
Infinity, a number beyond a double, a lone surrogate ``\udXXX``) and answers it as before. An answer
orjson cannot write (a lone surrogate in an order text echoed back) is written by the stdlib, \u-escaped.
One difference stays: orjson reads an integer beyond 64 bits as a float; no field of a request is a
number, so such a request gets the same error either way (the tests hold both paths to that).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _stdlib_loads(text: str | bytes) -> Any:
    import json

    return json.loads(text)


_stdlib_encoder: Callable[[Any], str] | None = None


def _stdlib_encode(answer: Any) -> bytes:
    """Compact JSON, non-ASCII as \\u escapes: what the stdlib writes, and the command wrote before orjson."""
    global _stdlib_encoder
    if _stdlib_encoder is None:
        import json

        # One encoder for the whole batch: json.dumps with any option builds a new one per call.
        _stdlib_encoder = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
    return _stdlib_encoder(answer).encode()


def _codec() -> tuple[Callable[[str | bytes], Any], Callable[[Any], bytes]]:
    """The batch's ``(loads, encode)``: orjson's with the stdlib behind them, or the stdlib's alone when
    orjson cannot be imported (a bare checkout: the engine needs nothing beyond Python)."""
    try:
        import orjson
    except ImportError:
        return _stdlib_loads, _stdlib_encode
    orjson_loads, orjson_dumps, decode_error = orjson.loads, orjson.dumps, orjson.JSONDecodeError

    def loads(text: str | bytes) -> Any:
        try:
            return orjson_loads(text)
        except decode_error:  # the stdlib's verdict, and its message if it agrees the line is not JSON
            return _stdlib_loads(text)

    def encode(answer: Any) -> bytes:
        try:
            return orjson_dumps(answer)
        except TypeError:  # orjson.JSONEncodeError: a lone surrogate, an int beyond 64 bits
            return _stdlib_encode(answer)

    return loads, encode


# ``_loads`` reads a request: the stdlib's until a batch sets up its codec. One request does not pay for
# importing orjson, which costs more than it saves on one answer (docs/benchmarks.md has the figures).
_loads: Callable[[str | bytes], Any] = _stdlib_loads
# ``_encode(answer)`` is the bytes a batch writes for one answer (its newline apart), set by ``_use_codec``.
# orjson and the stdlib write the same bytes for an ASCII answer; orjson writes others as UTF-8, not \uXXXX.
_encode: Callable[[Any], bytes]


def _use_codec() -> Callable[[Any], bytes]:
    """Set up the batch's ``_loads`` and ``_encode`` (once); returns ``_encode``."""
    global _loads, _encode
    if "_encode" not in globals():
        _loads, _encode = _codec()
    return _encode


def __getattr__(name: str) -> Any:
    """``cli._encode`` from outside (the tests): the batch's encoder, set up on first use."""
    if name == "_encode":
        return _use_codec()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# The commands that answer requests: each one's ``(module, function)``, a decoded request in and its
# answer out, ``RequestError`` (``request.py``) for a bad request.
COMMANDS: dict[str, tuple[str, str]] = {
    "adjudicate": ("dipserver.adjudicator.jsonio", "adjudicate_request"),
    "options": ("dipserver.adjudicator.offers", "options_request"),
}

# ``command -> (its answer function, RequestError)``, imported on the command's first request: an import
# statement costs about a microsecond each time it runs, and ``check`` or ``map`` need no adjudication.
_engine: dict[str, tuple[Callable[[Any], dict[str, Any]], type[Exception]]] = {}


# The answer to JSON nested deeper than the stdlib's decoder can follow (it recurses once per level, and
# gives up near the interpreter's recursion limit, about 1,000 levels; orjson stops at 1,024). No request
# needs more than a few levels.
TOO_DEEP = "not valid JSON: arrays and objects nested too deeply (a request needs only a few levels)"
# The answer when JSON that could be read holds a value too deep for the engine to look at, or to name in
# its message (``repr`` gives up near the same limit).
TOO_DEEP_VALUE = "a value in the request is nested too deeply (a request needs only a few levels)"


# The largest request read, in bytes (or characters) of JSON: a position of our largest map with its "map"
# is under 8 KB, and with an order of the longest for every unit under 40 KB. A larger one is refused
# before it is decoded; the readers never hold more of one than a byte over this (``batch``).
MAX_REQUEST = 1 << 20
TOO_LARGE = f"request too large: a request is at most {MAX_REQUEST:,} bytes of JSON"


def too_large(text: str | bytes) -> dict[str, Any]:
    return {"error": TOO_LARGE}


def answer_text(text: str | bytes, command: str = "adjudicate") -> dict[str, Any]:
    """``command``'s answer to one request's JSON text (``COMMANDS``); every failure becomes
    ``{"error": ...}``, never a traceback."""
    if len(text) > MAX_REQUEST:
        return too_large(text)
    try:
        data = _loads(text)
    except ValueError as exc:  # JSONDecodeError, and UnicodeDecodeError for bytes that are not UTF-8
        if not text.strip():
            return {"error": "empty request: expected one JSON object"}
        return {"error": f"not valid JSON: {exc}"}
    except RecursionError:
        return {"error": TOO_DEEP}
    return _answer_data(data, command)


def _answer_data(data: Any, command: str = "adjudicate") -> dict[str, Any]:
    """``command``'s answer to one decoded request, as ``answer_text`` gives it."""
    found = _engine.get(command)
    if found is None:
        import importlib

        from dipserver.adjudicator.request import RequestError

        module, function = COMMANDS[command]
        found = _engine[command] = getattr(importlib.import_module(module), function), RequestError
    adjudicate, request_error = found
    try:
        return adjudicate(data)
    except request_error as exc:
        return {"error": str(exc)}
    except RecursionError:
        return {"error": TOO_DEEP_VALUE}
    except Exception as exc:  # a batch must go on; the message still lets someone file a bug
        return {"error": f"internal error ({type(exc).__name__}): {exc}"}


def line_answerer(command: str = "adjudicate") -> Callable[[bytes], bytes]:
    """The batch's ``line -> answer line`` (newline included): ``_encode(answer_text(line, command))
    + b"\n"``, with orjson's decoding and encoding called directly. A batch would spend a few microseconds
    a line on the layers in between (two wrappers, a copy of each answer to add its newline); a line orjson
    cannot read goes the layered way, which says what is wrong."""
    encode = _use_codec()
    try:
        import orjson
    except ImportError:
        return lambda line: encode(answer_text(line, command)) + b"\n"
    loads, dumps, decode_error, newline = (
        orjson.loads,
        orjson.dumps,
        orjson.JSONDecodeError,
        orjson.OPT_APPEND_NEWLINE,
    )

    def answer_line(line: bytes) -> bytes:
        if len(line) > MAX_REQUEST:
            return dumps(too_large(line), option=newline)
        try:
            data = loads(line)
        except decode_error:  # not JSON to orjson: the stdlib decides, and gives the message
            return encode(answer_text(line, command)) + b"\n"
        answer = _answer_data(data, command)
        try:
            return dumps(answer, option=newline)
        except TypeError:  # orjson.JSONEncodeError: a lone surrogate, an int beyond 64 bits
            return _stdlib_encode(answer) + b"\n"

    return answer_line
