"""DESIGN §11 against an anonymous client on the open internet: the body
limit, valid Unicode everywhere, short errors, the rate limit on creation,
caching that never mixes views, and the HTTP details (405 Allow, empty
Idempotency-Key, If-Match: *, a replayed creation's 201, health)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from fastapi.testclient import TestClient

from cgledger.api.app import create_app
from cgledger.api.limits import CreateRateLimit
from cgledger.settings import Settings
from cgledger.version import VERSION

pytestmark = pytest.mark.shared_app

KGP = {"ruleset": "kgp", "campaign": "CG I", "title": "hard", "initial_cpp": {"German": 2}}
LONE = "\\ud800"  # as JSON text: an escape that decodes to a lone surrogate


def _raw(client: TestClient, path: str, text: str, **headers: str) -> Any:
    return client.post(
        path, content=text.encode(), headers={"Content-Type": "application/json", **headers}
    )


# ------------------------------------------------------------ valid Unicode


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (f'{{"ruleset": "{LONE}", "campaign": "CG I"}}', "ruleset"),
        (f'{{"ruleset": "kgp", "campaign": "CG I", "title": "a{LONE}b"}}', "title"),
        (f'{{"ruleset": "kgp", "campaign": "{LONE}"}}', "campaign"),
        (f'{{"ruleset": "kgp", "campaign": "CG I", "start_date": "{LONE}"}}', "start_date"),
        (f'{{"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {{"{LONE}": 1}}}}', "initial"),
        (
            f'{{"ruleset": "kgp", "campaign": "CG I", "definition": {{"sides": ["{LONE}"]}}}}',
            "definition.sides.0",
        ),
    ],
)
def test_a_lone_surrogate_on_creation_is_a_422_naming_the_field(
    client: TestClient, body: str, field: str
) -> None:
    problem = assert_problem(_raw(client, "/v1/campaigns", body), 422)
    assert problem["field"].startswith(field), problem
    assert "Unicode" in problem["detail"]


@pytest.fixture
def kgp(client: TestClient) -> Game:
    return Game(client, KGP)


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/cg-dates", f'{{"cg_date": "{LONE}"}}', "cg_date"),
        ("/rg-purchases", f'{{"side": "{LONE}", "rg": "I2", "cpp": 1}}', "side"),
        ("/rg-purchases", f'{{"rgs": [{{"rg": "I{LONE}", "cpp": 1}}]}}', "rgs.0.rg"),
        ("/rolls", f'{{"dice": 2, "purpose": "{LONE}"}}', "purpose"),
        ("/rolls", f'{{"dice": 2, "purpose": "x", "client_nonce": "{LONE}"}}', "client_nonce"),
        ("/disputes", f'{{"seq": 1, "claim": "{LONE}"}}', "claim"),
        ("/undo-requests", f'{{"to_seq": 1, "reason": "{LONE}"}}', "reason"),
    ],
)
def test_a_lone_surrogate_in_any_command_is_a_422_naming_the_field(
    kgp: Game, path: str, body: str, field: str
) -> None:
    r = _raw(kgp.client, kgp.url + path, body, **kgp.h("referee"))
    problem = assert_problem(r, 422)
    assert problem["field"] == field, problem


def test_a_lone_surrogate_in_a_table_input_key_is_a_422(kgp: Game) -> None:
    table = ok(kgp.client.get("/v1/rulesets/kgp/tables"))[0]["id"]
    body = f'{{"inputs": {{"{LONE}": 1}}}}'
    r = _raw(kgp.client, f"{kgp.url}/tables/{table}/rolls", body, **kgp.h("US"))
    problem = assert_problem(r, 422)
    assert problem["field"].startswith("inputs."), problem


@pytest.mark.parametrize(
    "query", ["event_type=%ED%A0%80", "after=%ED%A0%80", "at=%ED%A0%80", "limit=%FF"]
)
def test_undecodable_bytes_in_a_query_are_never_a_500(kgp: Game, query: str) -> None:
    r = kgp.client.get(f"{kgp.url}/events?{query}", headers=kgp.h("US"))
    assert r.status_code in (200, 422), r.text


def test_undecodable_bytes_in_a_path_are_a_404(client: TestClient) -> None:
    assert_problem(client.get("/v1/campaigns/%ED%A0%80"), 404)
    assert_problem(client.get("/v1/rulesets/%ED%A0%80/tables"), 404)


# ------------------------------------------------------------- body limit


@pytest.fixture
def small(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(data_dir=tmp_path / "data", max_body_bytes=1000, create_per_minute=100)
    with TestClient(create_app(settings)) as c:
        yield c


def test_a_declared_body_over_the_limit_is_refused_before_it_is_read(small: TestClient) -> None:
    r = small.post("/v1/campaigns", content=b"x" * 1001, headers={"Content-Type": "text/plain"})
    problem = assert_problem(r, 413)
    assert "1000 bytes" in problem["detail"]
    # A body at the limit is read (and then judged on its content).
    pad = 1000 - len(json.dumps({**KGP, "title": "", "start_date": None}))
    body = json.dumps({**KGP, "title": "", "start_date": None})
    body = body.replace("null", "null" + " " * pad)  # JSON whitespace up to the limit
    assert len(body) == 1000
    created(small.post("/v1/campaigns", content=body, headers={"Content-Type": "application/json"}))


def test_a_streamed_body_over_the_limit_is_refused_as_it_streams(small: TestClient) -> None:
    sent: list[int] = []

    def chunks() -> Iterator[bytes]:
        for i in range(100):  # 100 x 100 bytes, no Content-Length
            sent.append(i)
            yield b'{"ruleset": "' if i == 0 else b"x" * 100

    r = small.post("/v1/campaigns", content=chunks(), headers={"Content-Type": "application/json"})
    assert_problem(r, 413)
    # ... and the service still answers.
    created(small.post("/v1/campaigns", json=KGP))


def test_an_error_echoes_no_more_than_a_short_prefix(client: TestClient) -> None:
    huge = "19 AM" + "x" * 500_000
    r = client.post("/v1/campaigns", json={**KGP, "start_date": huge})
    assert_problem(r, 422)
    assert len(r.content) < 3000, len(r.content)
    key = "k" * 500_000
    r = client.post("/v1/campaigns", json={**KGP, "initial_cpp": {key: "x"}})
    assert_problem(r, 422)
    assert len(r.content) < 3000, len(r.content)


# ------------------------------------------------------------- rate limit


def test_campaign_creation_is_rate_limited_per_address(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data")  # the default: 10 a minute
    with TestClient(create_app(settings)) as c:
        for _ in range(settings.create_per_minute):
            created(c.post("/v1/campaigns", json=KGP))
        r = c.post("/v1/campaigns", json=KGP)
        problem = assert_problem(r, 429)
        assert 1 <= int(r.headers["Retry-After"]) <= 60
        assert "DESIGN §11" in problem["detail"]
        # Reads and other routes are not limited.
        ok(c.get("/v1/rulesets"))


def test_the_rate_limit_is_a_sliding_window_per_address() -> None:
    now = [1000.0]
    limit = CreateRateLimit(2, clock=lambda: now[0])
    limit.check("a")
    limit.check("a")
    limit.check("b")  # another address has its own count
    with pytest.raises(Exception, match="at most 2") as refused:
        limit.check("a")
    assert refused.value.headers == {"Retry-After": "60"}  # type: ignore[attr-defined]
    now[0] += 30
    with pytest.raises(Exception, match="retry in 30 s"):
        limit.check("a")
    now[0] += 30.5
    limit.check("a")  # the first two have left the window


# ---------------------------------------------------------------- caching


def test_campaign_data_is_private_and_varies_by_authorization(kgp: Game) -> None:
    for r in (
        kgp.get("US"),
        kgp.get("US", "/events"),
        kgp.get("US", "/roster"),
        kgp.post("US", "/rolls", {"dice": 2, "purpose": "x"}),
        kgp.client.post("/v1/campaigns", json=KGP),
    ):
        assert r.headers["Cache-Control"] == "private, no-store", r.url
        assert r.headers["Vary"] == "Authorization", r.url
    # Public data is not the campaign's: the rulesets may be cached.
    assert "private" not in kgp.client.get("/v1/rulesets").headers.get("Cache-Control", "")


def test_each_view_has_its_own_etag(kgp: Game) -> None:
    tags = {role: kgp.get(role).headers["ETag"] for role in ("US", "German", "referee")}
    assert len(set(tags.values())) == 3, tags
    assert kgp.get("US").headers["ETag"] == tags["US"]  # stable for one view
    kgp.post("US", "/rolls", {"dice": 2, "purpose": "x"})
    assert kgp.get("US").headers["ETag"] != tags["US"]  # and new with each version


def test_if_none_match_gives_304_without_a_body(kgp: Game) -> None:
    first = kgp.get("US")
    tag = first.headers["ETag"]
    r = kgp.client.get(kgp.url, headers=kgp.h("US", **{"If-None-Match": tag}))
    assert r.status_code == 304
    assert r.content == b""
    assert r.headers["ETag"] == tag
    assert r.headers["Cache-Control"] == "private, no-store"
    # The other side's tag does not match this view.
    other = kgp.get("German").headers["ETag"]
    r = kgp.client.get(kgp.url, headers=kgp.h("US", **{"If-None-Match": other}))
    assert r.status_code == 200
    # A stale tag does not match either.
    kgp.post("US", "/rolls", {"dice": 2, "purpose": "x"})
    r = kgp.client.get(kgp.url, headers=kgp.h("US", **{"If-None-Match": tag}))
    assert r.status_code == 200
    assert r.json()["version"] > first.json()["version"]


def test_if_match_takes_the_etag_verbatim_and_star(kgp: Game) -> None:
    tag = kgp.get("US").headers["ETag"]
    roll = {"dice": 2, "purpose": "x"}
    created(kgp.post("US", "/rolls", roll, **{"If-Match": tag}))
    assert_problem(kgp.post("US", "/rolls", roll, **{"If-Match": tag}), 409)  # now stale
    created(kgp.post("US", "/rolls", roll, **{"If-Match": "*"}))


# ----------------------------------------------------------- HTTP details


def test_405_names_the_allowed_methods(client: TestClient) -> None:
    r = client.put("/v1/campaigns")
    assert_problem(r, 405)
    assert r.headers["Allow"] == "POST"
    r = client.delete("/v1/rulesets")
    assert_problem(r, 405)
    assert "GET" in r.headers["Allow"]


@pytest.mark.parametrize("value", ["", " ", "a b", "k" * 201])
def test_an_unusable_idempotency_key_is_refused(kgp: Game, value: str) -> None:
    r = kgp.post("US", "/rolls", {"dice": 2, "purpose": "x"}, **{"Idempotency-Key": value})
    problem = assert_problem(r, 422)
    assert problem["field"] == "Idempotency-Key", problem
    r = kgp.client.post("/v1/campaigns", json=KGP, headers={"Idempotency-Key": value})
    assert_problem(r, 422)


def test_health_index_and_the_old_health_path(client: TestClient) -> None:
    health = ok(client.get("/v1/health"))
    assert health["status"] == "ok"
    assert health["version"] == VERSION
    assert health["database"] in ("sqlite", "postgresql")
    assert ok(client.get("/"))["health"] == "/v1/health"
    r = client.get("/health", follow_redirects=False)
    assert r.status_code == 308
    assert r.headers["Location"] == "/v1/health"
    assert client.app.openapi()["info"]["version"] == VERSION  # type: ignore[attr-defined]


@pytest.mark.store
def test_health_names_the_database(settings: Settings) -> None:
    with TestClient(create_app(settings)) as c:
        expected = "postgresql" if settings.database_url else "sqlite"
        assert ok(c.get("/v1/health"))["database"] == expected


def test_an_unknown_query_parameter_is_named(kgp: Game) -> None:
    """As with bodies, a typo is refused by name rather than silently ignored."""
    r = kgp.client.get(f"{kgp.url}/events?limt=5", headers=kgp.h("US"))
    problem = assert_problem(r, 422)
    assert problem["field"] == "limt"
    ok(kgp.client.get(f"{kgp.url}/events?limit=5", headers=kgp.h("US")))
