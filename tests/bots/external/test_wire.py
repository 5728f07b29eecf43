"""The file-bot wire (``bots.external.wire``): every message survives encoding
and decoding unchanged, and the decoder is total: any bytes at all (random, huge, deeply nested,
not UTF-8, of the wrong shape) give a message or one ``ProtocolError`` with a short printable
reason, never another exception."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bots.base import printable
from bots.external.wire import (KINDS, MAX_DEPTH, MAX_LINE, REPLIES, REQUESTS, Exited, Failed, Invalid, Lines,
                                    Load, Loaded, Move, MoveMany, Moved, MovedMany, NewGame, OutOfMemory, ProtocolError,
                                    Seed, Started, decode, encode)

ANY_TEXT = st.text(st.characters(blacklist_categories=()), max_size=40)  # lone surrogates too
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | ANY_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4),
    max_leaves=20,
)
COUNTS = st.none() | st.integers(min_value=0, max_value=1 << 40)
MESSAGES = st.one_of(
    st.builds(Load, path=ANY_TEXT, function=ANY_TEXT, game=ANY_TEXT, memory=COUNTS, processes=COUNTS),
    st.just(NewGame()),
    st.builds(Seed, seed=st.integers()),
    st.builds(Started, forked=st.booleans()),
    st.builds(Move, args=st.lists(JSON, max_size=4)),
    st.builds(MoveMany, args=st.lists(st.lists(JSON, max_size=3), max_size=4)),
    st.just(Loaded()),
    st.builds(Moved, move=JSON),
    st.builds(MovedMany, moves=st.lists(JSON, max_size=4)),
    st.builds(Failed, detail=ANY_TEXT),
    st.builds(OutOfMemory, detail=ANY_TEXT),
    st.builds(Exited, detail=ANY_TEXT),
    st.builds(Invalid, detail=ANY_TEXT),
)


def decodes_or_refuses(data: bytes):
    """``decode(data)``, asserting it is a message or a short printable ``ProtocolError``."""
    try:
        message = decode(data)
    except ProtocolError as exc:
        reason = str(exc)
        assert reason and len(reason) <= 80 and printable(reason) == reason, reason
        return exc
    assert type(message) in KINDS.values()
    return message


# -- round trips ----------------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(MESSAGES)
def test_encoding_then_decoding_gives_the_message_back(message):
    line = encode(message)
    assert line.endswith(b"\n") and line.count(b"\n") == 1 and line.isascii()
    assert decode(line) == message
    assert decode(line[:-1]) == message  # the newline is optional


def test_every_kind_of_message_has_a_round_trip():
    samples = [Load("/bot/x.py", "strategy", "hog", 1 << 30, 64), Load("x.py", "f", "hog"),
               Load("/bot/engine.py", "engine", "ludo", package="packaged_bot"), Seed(-5),
               Move([[["B", "*"]], "O"]), Loaded(), Moved([1, 2, 3]), Moved("E3"), Failed("ValueError: no"),
               OutOfMemory(), Exited("it called exit(3)"), Invalid("'one' is not a whole number"), NewGame(),
               Started(), Started(forked=False), MoveMany([[0, 0], [12, 34]]), MoveMany([]), MovedMany([4, 0]),
               MovedMany([])]
    assert {type(m) for m in samples} == set(REQUESTS + REPLIES) == set(KINDS.values())
    for message in samples:
        assert decode(encode(message)) == message


def test_a_table_request_holds_argument_lists_only():
    """``MoveMany``'s ``args`` is a list of ``Move`` arguments: each one a list, whichever end wrote it."""
    for args in ([1, 2], [[1], 2], [[1], None], "[[1]]"):
        with pytest.raises(ProtocolError, match="movemany: args is not of its type"):
            encode(MoveMany(args))
        with pytest.raises(ProtocolError, match="movemany: args is not of its type"):
            decode(b'{"kind":"movemany","args":' + json.dumps(args).encode() + b"}")


# -- the encoder refuses what it cannot send ----------------------------------------------------

@pytest.mark.parametrize("message, words", [
    (Seed("7"), "seed is not of its type"),
    (Seed(True), "seed is not of its type"),
    (Started(1), "forked is not of its type"),
    (Load("p", "f", "g", memory=-1), "memory is not of its type"),
    (Load("p", "f", "g", package="../x"), "package is not of its type"),
    (Moved(float("nan")), "move is not of its type"),
    (Moved({1: 2}), "move is not of its type"),
    (Moved(object()), "move is not of its type"),
    (Moved(10 ** 5000), "cannot be written"),
    (Moved(json.loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))), "move is not of its type"),
    (Failed("x" * MAX_LINE), "over 4 MiB"),
    ("not a message", "not a message"),
])
def test_the_encoder_refuses_what_is_not_a_message_of_its_types(message, words):
    with pytest.raises(ProtocolError, match=words):
        encode(message)


def test_a_json_value_as_deep_as_allowed_goes_through():
    deep = json.loads("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    assert decode(encode(Moved(deep))) == Moved(deep)


# -- the decoder is total -------------------------------------------------------------------------

HOSTILE = {
    "deep arrays": b"[" * 100_000,
    "deep objects": b'{"a":' * 100_000,
    "deep in a message": b'{"kind":"moved","move":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "too deep for a move": json.dumps({"kind": "moved", "move": json.loads("[" * 40 + "]" * 40)}).encode(),
    "not UTF-8": b'{"kind":"failed","detail":"\xff\xfe"}',
    "a signal word": b'"cancelled"',
    "empty": b"",
    "a newline": b"\n",
    "null": b"null",
    "a number": b"1",
    "a huge int": b'{"kind":"seed","seed":' + b"9" * 5000 + b"}",
    "NaN": b'{"kind":"moved","move":NaN}',
    "infinity by exponent": b'{"kind":"moved","move":1e999}',
    "a bool for an int": b'{"kind":"seed","seed":true}',
    "a negative cap": b'{"kind":"load","path":"p","function":"f","game":"g","memory":-1}',
    "an extra field": b'{"kind":"loaded","ok":true}',
    "a missing field": b'{"kind":"failed"}',
    "no kind": b'{"ok":true,"move":1}',
    "a kind that is no string": b'{"kind":["moved"]}',
    "an unknown kind": b'{"kind":"\\u001b[2Jreboot' + b"x" * 1000 + b'"}',
    "the old wire": b'{"ok": true, "move": 1, "seconds": 0.001}',
    "a byte order mark": b'\xef\xbb\xbf{"kind":"loaded"}',
    "too long": b'{"kind":"failed","detail":"' + b"x" * MAX_LINE + b'"}',
    "a control in a field name": b'{"kind":"loaded","\\u001b]0;pwned\\u0007":1}',
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_bytes_are_one_protocol_error(name):
    outcome = decodes_or_refuses(HOSTILE[name])
    assert isinstance(outcome, ProtocolError), outcome
    assert "\x1b" not in str(outcome)


def test_a_lone_surrogate_in_a_detail_is_a_message_not_a_crash():
    assert decode(b'{"kind":"failed","detail":"\\ud800"}') == Failed("\ud800")


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2000))
@example(b"[" * 5000)
@example(b"\x00\n\xff")
def test_random_bytes_decode_or_are_a_protocol_error(data):
    decodes_or_refuses(data)


FIELD_NAMES = st.sampled_from(["kind", "path", "function", "game", "memory", "processes", "seed", "args", "move",
                               "detail"]) | ANY_TEXT


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(FIELD_NAMES, JSON | st.sampled_from(sorted(KINDS)), max_size=6))
def test_random_objects_of_plausible_fields_decode_or_are_a_protocol_error(body):
    outcome = decodes_or_refuses(json.dumps(body).encode())
    if not isinstance(outcome, ProtocolError):
        assert decode(encode(outcome)) == outcome


@settings(max_examples=500, deadline=None)
@given(MESSAGES, st.lists(st.tuples(st.integers(min_value=0), st.binary(max_size=3)), min_size=1, max_size=4))
def test_mangled_messages_decode_or_are_a_protocol_error(message, edits):
    data = bytearray(encode(message))
    for where, new in edits:
        at = where % (len(data) + 1)
        data[at:at + len(new) // 2 + 1] = new  # replace a little, or insert, or cut
    decodes_or_refuses(bytes(data))


# -- lines ---------------------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(st.lists(MESSAGES, max_size=6), st.lists(st.integers(min_value=1, max_value=50), min_size=1))
def test_a_stream_cut_anywhere_gives_the_same_messages(messages, cuts):
    stream = b"".join(encode(m) for m in messages)
    lines, got, at, i = Lines(), [], 0, 0
    while at < len(stream):
        size = cuts[i % len(cuts)]
        lines.feed(stream[at:at + size])
        at, i = at + size, i + 1
        while (line := lines.next()) is not None:
            got.append(decode(line))
    assert got == messages and lines.next() is None


def test_an_endless_line_is_dropped_with_a_protocol_error_and_the_buffer_stays_bounded():
    lines = Lines()
    chunk = b"x" * (1 << 16)
    for _ in range(MAX_LINE // len(chunk)):
        lines.feed(chunk)
        assert lines.next() is None
    lines.feed(chunk)
    with pytest.raises(ProtocolError, match="over 4 MiB without an end of line"):
        lines.next()
    assert len(lines.buffer) == 0
    lines.feed(encode(Loaded()))
    assert decode(lines.next()) == Loaded()
