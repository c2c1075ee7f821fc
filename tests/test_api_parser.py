"""Bodies the JSON parser does not take (DESIGN §3, §11; issue 25).

Nesting deeper than ``MAX_JSON_DEPTH``, a number too large to hold, bytes that
are not UTF-8, ``NaN``: each is a 422 problem+json whose ``field`` is
``body`` and whose detail says why, decided before the token is checked (so
the same with a token, with a wrong one and without), never a 500 and never a
traceback in the log. A body within the limits, however deep, reaches the
route's own validation.

Every test here runs on SQLite and, with ``--all-backends``, on PostgreSQL
(see ``conftest.py``).
"""

from __future__ import annotations

import json
import logging
import time
from decimal import Decimal
from typing import Any

import pytest
from conftest import Game
from conftest import assert_problem as problem
from hypothesis import given
from hypothesis import strategies as st

from cgledger.api.limits import (
    MAX_JSON_DEPTH,
    MAX_NUMBER,
    BodyRefused,
    json_depth,
    parse_json_body,
)

pytestmark = pytest.mark.shared_app

JSON = {"Content-Type": "application/json"}

#: JSON routes of several kinds: the creation (no token), the engine's own
#: commands, a ruleset's command and a table roll.
ROUTES = ["/v1/campaigns", "/rolls", "/undo-requests", "/rg-purchases", "/tables/8.606/rolls"]
TOKENS = ["German", "none", "wrong"]


def url(game: Game, route: str) -> str:
    return route if route.startswith("/v1/") else game.url + route


def headers(game: Game, token: str) -> dict[str, str]:
    if token == "none":
        return JSON
    if token == "wrong":
        return {**JSON, "Authorization": "Bearer not-a-token"}
    return game.h(token, **JSON)


def post(game: Game, route: str, body: bytes, token: str = "German") -> Any:
    return game.client.post(url(game, route), content=body, headers=headers(game, token))


def nested(depth: int, kind: str, inner: bytes = b"1") -> bytes:
    """``inner`` inside ``depth`` arrays or objects."""
    if kind == "array":
        return b"[" * depth + inner + b"]" * depth
    return b'{"a":' * depth + inner + b"}" * depth


def refused(r: Any, caplog: pytest.LogCaptureFixture, *words: str) -> dict[str, Any]:
    """The parser's 422: the field is the body, the detail says why, and
    nothing was logged as an error (no traceback)."""
    body = problem(r, 422)
    assert body.get("field") == "body", body
    for word in words:
        assert word in body["detail"], body
    logged = [rec for rec in caplog.records if rec.levelno >= logging.ERROR or rec.exc_info]
    assert logged == [], [rec.getMessage() for rec in logged]
    return body


@pytest.fixture
def game(kgp: Game, caplog: pytest.LogCaptureFixture) -> Game:
    caplog.set_level(logging.DEBUG)
    return kgp


# ------------------------------------------------------------------- nesting


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 100, 980, 1000, 5000, 100_000])
@pytest.mark.parametrize("kind", ["array", "object"])
@pytest.mark.parametrize("token", TOKENS)
@pytest.mark.parametrize("route", ROUTES)
def test_nesting_over_the_limit_is_refused_before_the_token(
    game: Game, caplog: pytest.LogCaptureFixture, route: str, token: str, kind: str, depth: int
) -> None:
    before = game.version()
    body = nested(depth, kind)
    assert len(body) < 1024 * 1024  # within the body limit: the parser's refusal, not a 413
    r = post(game, route, body, token)
    refused(r, caplog, f"{depth} deep", f"limit is {MAX_JSON_DEPTH}")
    assert game.version() == before


@pytest.mark.parametrize("kind", ["array", "object"])
def test_nesting_inside_a_field_counts_too(
    game: Game, caplog: pytest.LogCaptureFixture, kind: str
) -> None:
    body = b'{"dice": 2, "purpose": ' + nested(5000, kind) + b"}"
    refused(post(game, "/rolls", body), caplog, "5001 deep")


def test_brackets_in_a_string_are_text(game: Game) -> None:
    """A string full of brackets nests nothing: the roll is made."""
    purpose = '[[[{{{"\\\\' * 20
    body = json.dumps({"dice": 2, "purpose": purpose}).encode()
    assert json_depth(body) == 1
    r = post(game, "/rolls", body)
    assert r.status_code == 201, r.text
    assert r.json()["purpose"] == purpose


@pytest.mark.parametrize("depth", [50, MAX_JSON_DEPTH - 1])
@pytest.mark.parametrize("kind", ["array", "object"])
def test_deep_but_legitimate_nesting_reaches_the_route(game: Game, kind: str, depth: int) -> None:
    """Within the limit (the body's own object is a level), the route's own
    validation answers: a 422 naming the field with a token, a 401 without."""
    before = game.version()
    body = b'{"dice": 2, "purpose": ' + nested(depth, kind) + b"}"
    assert json_depth(body) == depth + 1 <= MAX_JSON_DEPTH
    r = post(game, "/rolls", body)
    assert problem(r, 422).get("field") == "purpose", r.text
    problem(post(game, "/rolls", body, "none"), 401)
    created = {"ruleset": "kgp", "campaign": "CG I", "title": json.loads(nested(depth, kind))}
    r = post(game, "/v1/campaigns", json.dumps(created).encode(), "none")
    assert problem(r, 422).get("field") == "title", r.text
    assert game.version() == before


# ------------------------------------------------------------------- numbers

#: The largest whole number held: a double's largest, exactly.
WHOLE = int(MAX_NUMBER)

TOO_LARGE = [
    pytest.param("9" * 5000, "too large to hold", id="5000-digits"),
    pytest.param("-" + "9" * 5000, "too large to hold", id="minus-5000-digits"),
    pytest.param(str(WHOLE + 1), "too large to hold", id="double-max+1"),
    pytest.param(str(-WHOLE - 1), "too large to hold", id="-double-max-1"),
    pytest.param("1e999", "too large to hold", id="1e999"),
    pytest.param("-1e999", "too large to hold", id="-1e999"),
    pytest.param("1e309", "too large to hold", id="1e309"),
    pytest.param("1" + "0" * 400 + ".5", "too large to hold", id="401-digit-float"),
    pytest.param("NaN", "not a JSON number", id="NaN"),
    pytest.param("Infinity", "not a JSON number", id="Infinity"),
    pytest.param("-Infinity", "not a JSON number", id="-Infinity"),
]


@pytest.mark.parametrize("token", TOKENS)
@pytest.mark.parametrize(("number", "says"), TOO_LARGE)
@pytest.mark.parametrize(
    ("route", "template"),
    [
        ("/rolls", b'{"dice": %s, "purpose": "x"}'),
        ("/undo-requests", b'{"seqs": [1, %s], "reason": "x"}'),
        ("/v1/campaigns", b'{"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": %s}}'),
    ],
)
def test_a_number_too_large_to_hold_is_refused_before_the_token(
    game: Game,
    caplog: pytest.LogCaptureFixture,
    route: str,
    template: bytes,
    number: str,
    says: str,
    token: str,
) -> None:
    before = game.version()
    refused(post(game, route, template % number.encode(), token), caplog, says)
    assert game.version() == before


@pytest.mark.parametrize("number", [WHOLE, -WHOLE, MAX_NUMBER, -MAX_NUMBER, 10**300, 0.5])
def test_the_largest_numbers_held_reach_the_route(game: Game, number: float) -> None:
    body = json.dumps({"dice": number, "purpose": "x"}).encode()
    assert problem(post(game, "/rolls", body), 422).get("field") == "dice"
    problem(post(game, "/rolls", body, "none"), 401)


@pytest.mark.parametrize("number", ["2.0", "2e0", "0.2e1", "2.000000000000000000000000"])
def test_a_whole_number_with_a_fraction_is_an_integer(game: Game, number: str) -> None:
    """As in JSON Schema, whose ``integer`` the OpenAPI document uses: 2.0 is 2."""
    r = post(game, "/rolls", b'{"dice": %s, "purpose": "x"}' % number.encode())
    assert r.status_code == 201, r.text
    assert len(r.json()["dice"]) == 2


@pytest.mark.parametrize("number", ["2.5", "2.0000000000000001", "-0.5e1"])
def test_a_number_with_a_fraction_stays_one(game: Game, number: str) -> None:
    """2.0000000000000001 is read exactly (a double would round it to 2)."""
    before = game.version()
    r = post(game, "/rolls", b'{"dice": %s, "purpose": "x"}' % number.encode())
    assert problem(r, 422).get("field") == "dice", r.text
    assert game.version() == before


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1e300", 10**300),
        ("-2.5e3", -2500),
        ("1.7976931348623157e308", 17976931348623157 * 10**292),
        ("0.0", 0),
    ],
)
def test_a_whole_number_is_read_exactly_whatever_its_size(text: str, value: int) -> None:
    read = parse_json_body(text.encode())
    assert type(read) is int
    assert read == value


# ------------------------------------------------------------------- UTF-8

NOT_UTF8 = [
    pytest.param(b"\xff", id="ff"),
    pytest.param(b"\xe9t\xe9", id="latin-1"),
    pytest.param(b"\xc3", id="truncated"),
    pytest.param(b"\xc0\xaf", id="overlong"),
    pytest.param(b"\xed\xa0\x80", id="encoded-surrogate"),
    pytest.param(b"\xf4\x90\x80\x80", id="beyond-U+10FFFF"),
]


@pytest.mark.parametrize("token", TOKENS)
@pytest.mark.parametrize("raw", NOT_UTF8)
@pytest.mark.parametrize("route", ["/rolls", "/cg-dates", "/v1/campaigns"])
def test_bytes_that_are_not_utf8_are_refused_before_the_token(
    game: Game, caplog: pytest.LogCaptureFixture, route: str, raw: bytes, token: str
) -> None:
    before = game.version()
    body = b'{"purpose": "a' + raw + b'b", "dice": 2}'
    answer = refused(post(game, route, body, token), caplog, "not UTF-8", "offset 14")
    assert f"0x{raw[0]:02x}" in answer["detail"], answer
    assert game.version() == before


def test_utf16_is_not_utf8(game: Game, caplog: pytest.LogCaptureFixture) -> None:
    body = json.dumps({"dice": 2, "purpose": "x"}).encode("utf-16")
    refused(post(game, "/rolls", body, "none"), caplog, "not UTF-8", "offset 0")


def test_a_byte_order_mark_is_ignored(game: Game) -> None:
    """RFC 8259 §8.1: a parser may ignore a leading BOM; this one does."""
    r = post(game, "/rolls", b"\xef\xbb\xbf" + json.dumps({"dice": 2, "purpose": "x"}).encode())
    assert r.status_code == 201, r.text


# ------------------------------------------------------------ not JSON at all


@pytest.mark.parametrize(
    "body",
    [b'{"dice": 2,', b"{'dice': 2}", b'{"dice": 2} {}', b"\x00", b"   ", b'"unterminated'],
    ids=["cut", "quotes", "extra", "nul", "blank", "unterminated"],
)
@pytest.mark.parametrize("token", TOKENS)
def test_malformed_json_is_refused_before_the_token(
    game: Game, caplog: pytest.LogCaptureFixture, body: bytes, token: str
) -> None:
    refused(post(game, "/rolls", body, token), caplog, "malformed JSON")


# --------------------------------------------------------- the parser itself


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


def _read(value: Any) -> Any:
    """What the parser makes of ``value`` parsed with exact decimals: a whole
    number is an integer, any other a double."""
    if isinstance(value, dict):
        return {k: _read(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_read(v) for v in value]
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


#: Text that looks like JSON: brackets, quotes and backslashes in strings and keys.
TRICKY = st.text(alphabet=st.sampled_from('[]{}"\\,:ab é\n\t\x00'), max_size=8)
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-WHOLE, max_value=WHOLE)
    | st.floats(allow_nan=False, allow_infinity=False)
    | TRICKY,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TRICKY, inner, max_size=3),
    max_leaves=30,
)


@given(value=VALUES, ascii_only=st.booleans())
def test_the_depth_is_counted_as_the_parser_nests(value: Any, ascii_only: bool) -> None:
    body = json.dumps(value, ensure_ascii=ascii_only).encode()
    assert json_depth(body) == _depth(value)
    assert parse_json_body(body) == _read(json.loads(body, parse_float=Decimal))


@given(
    depth=st.integers(min_value=0, max_value=3 * MAX_JSON_DEPTH),
    kind=st.sampled_from(["array", "object"]),
)
def test_the_limit_is_exact(depth: int, kind: str) -> None:
    body = nested(depth, kind)
    if depth <= MAX_JSON_DEPTH:
        assert _depth(parse_json_body(body)) == depth
    else:
        with pytest.raises(BodyRefused, match=f"{depth} deep"):
            parse_json_body(body)


@pytest.mark.parametrize(
    "body",
    [b'"' * 100_000, b'"' + b'\\"' * 100_000, b'"' + b"\\" * 100_000, b'["' * 100_000],
    ids=["quotes", "escaped-quotes", "backslashes", "open-strings"],
)
def test_the_scan_is_linear_in_quotes_and_backslashes(body: bytes) -> None:
    """No string pattern that backtracks: each of these is scanned once. A
    quadratic scan of 200 kB takes minutes; a linear one, milliseconds."""
    start = time.perf_counter()
    with pytest.raises(BodyRefused, match=r"malformed JSON|deep"):
        parse_json_body(body)
    assert time.perf_counter() - start < 2.0
