"""Bad input at the REST API (DESIGN §3).

Every refusal is ``application/problem+json`` with ``type``, ``title``,
``status`` and ``detail``; the detail (or the ``field`` member) names the
field or the rule that was broken, and the campaign's event log is left
untouched. Rule refusals are 409 with a detail that starts with the rule
number and a ``rule`` member.

Every test here runs on SQLite and on PostgreSQL (see ``conftest.py``).
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Game
from conftest import assert_problem as problem
from fastapi.testclient import TestClient

pytestmark = pytest.mark.shared_app

# --------------------------------------------------------------------- helpers

#: A purchase the German of the ``kgp`` fixture can make: F1 costs the 2 CPP it
#: holds on the sample RG chart, and 8.6195 counts per Map Group.
F1: dict[str, Any] = {"rg": "F1", "map_group": "Sx"}


def names(body: dict[str, Any], name: str) -> bool:
    """True if the problem names ``name`` in its ``field`` member or its detail."""
    return body.get("field") == name or name in body["detail"]


def invalid(r: Any, field: str) -> dict[str, Any]:
    body = problem(r, 422)
    assert names(body, field), f"the problem does not name {field!r}: {body}"
    return body


def refused(r: Any, rule: str) -> dict[str, Any]:
    """A 409 rule refusal: detail starts with the rule number, ``rule`` is set."""
    body = problem(r, 409)
    assert body.get("rule") == rule, body
    assert body["detail"].startswith(f"{rule}:"), body
    return body


def created(r: Any) -> dict[str, Any]:
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def next_date(game: Game, body: dict[str, Any] | None = None) -> dict[str, Any]:
    return created(game.post("referee", "/cg-dates", {} if body is None else body))


def replenish(game: Game, side: str) -> dict[str, Any]:
    return created(game.post(side, "/cpp-replenishments", {}))


def at_19pm(game: Game, *sides: str) -> None:
    """End the Initial Scenario, begin 19 PM and make the 8.616 DR for ``sides``."""
    assert game.next_date()["cg_date"] == "19 PM"
    for side in sides:
        replenish(game, side)


def roster_line(game: Game, role: str, side: str, cg_date: str) -> dict[str, Any]:
    r = game.client.get(game.url + "/roster", params={"side": side}, headers=game.h(role))
    assert r.status_code == 200, r.text
    lines = [line for line in r.json()["lines"] if line["cg_date"] == cg_date]
    assert len(lines) == 1, r.json()
    line: dict[str, Any] = lines[0]
    return line


def events(game: Game) -> list[dict[str, Any]]:
    r = game.client.get(game.url + "/events", params={"limit": 1000}, headers=game.h("referee"))
    assert r.status_code == 200, r.text
    items: list[dict[str, Any]] = r.json()["items"]
    return items


# ------------------------------------------------------- malformed bodies


def test_malformed_json_body(kgp: Game) -> None:
    before = kgp.version()
    r = kgp.client.post(
        kgp.url + "/rolls",
        content=b'{"dice": 2,',
        headers=kgp.h("German", **{"Content-Type": "application/json"}),
    )
    body = problem(r, 422)
    assert "JSON" in body["detail"], body
    assert kgp.version() == before


def test_malformed_json_body_field_is_body(kgp: Game) -> None:
    """The ``field`` member names a request field; a body that is not JSON at all
    has no field but the body itself. FastAPI's error location for invalid JSON
    is ``("body", <byte offset>)``, and the offset must not be reported as if it
    were a field called "11"."""
    r = kgp.client.post(
        kgp.url + "/rolls",
        content=b'{"dice": 2,',
        headers=kgp.h("German", **{"Content-Type": "application/json"}),
    )
    body = problem(r, 422)
    assert body.get("field") == "body", body


@pytest.mark.parametrize(
    ("path", "payload", "field"),
    [
        pytest.param("/rolls", {"dice": "two", "purpose": "x"}, "dice", id="rolls-dice-str"),
        pytest.param("/rolls", {"dice": 2.5, "purpose": "x"}, "dice", id="rolls-dice-float"),
        pytest.param("/rolls", {"dice": 2, "purpose": 5}, "purpose", id="rolls-purpose-int"),
        pytest.param(
            "/rolls", {"dice": 2, "purpose": "x", "secret": "maybe"}, "secret", id="rolls-secret"
        ),
        pytest.param(
            "/rolls", {"dice": 2, "purpose": "x", "client_nonce": 7}, "client_nonce", id="nonce"
        ),
        pytest.param("/rolls", [2, "x"], "body", id="rolls-list-body"),
        pytest.param("/rolls", "2", "body", id="rolls-string-body"),
        pytest.param("/rg-purchases", {**F1, "cpp": "three"}, "cpp", id="rg-cpp-str"),
        pytest.param("/rg-purchases", {**F1, "rg": 2}, "rg", id="rg-rg-int"),
        pytest.param("/rg-purchases", {**F1, "cpp": 0}, "cpp", id="rg-cpp-zero"),
        pytest.param("/rg-purchases", {**F1, "rg": "I 2!"}, "rg", id="rg-bad-id"),
        pytest.param("/rg-purchases", {**F1, "map_group": 1}, "map_group", id="rg-group-int"),
        pytest.param("/recon", {"cpp": 3}, "cpp", id="recon-cpp-3"),
        pytest.param("/recon", {"cpp": 1, "lax": "sometimes"}, "lax", id="recon-lax"),
        pytest.param("/cg-dates", {"cg_date": 19}, "cg_date", id="cg-date-int"),
        pytest.param("/cpp-replenishments", {"side": ["German"]}, "side", id="repl-side-list"),
    ],
)
def test_wrong_types(kgp: Game, path: str, payload: Any, field: str) -> None:
    before = kgp.version()
    invalid(kgp.post("German", path, payload), field)
    assert kgp.version() == before


@pytest.mark.parametrize(
    ("path", "payload", "field"),
    [
        pytest.param("/rolls", {"dice": 2, "purpose": "x", "dise": 2}, "dise", id="rolls-dise"),
        pytest.param("/rg-purchases", {**F1, "price": 2}, "price", id="rg-price"),
        pytest.param("/recon", {"cpp": 1, "drm": 5}, "drm", id="recon-drm"),
        pytest.param("/cg-dates", {"date": "19 PM"}, "date", id="cg-dates-date"),
        pytest.param("/cpp-replenishments", {"dr": 2}, "dr", id="repl-dr"),
    ],
)
def test_unknown_extra_field(kgp: Game, path: str, payload: Any, field: str) -> None:
    before = kgp.version()
    invalid(kgp.post("German", path, payload), field)
    assert kgp.version() == before


def test_typo_for_a_required_field_names_both(kgp: Game) -> None:
    """{"dise": 2} instead of {"dice": 2}: the missing field and the typo are both named."""
    before = kgp.version()
    body = invalid(kgp.post("German", "/rolls", {"dise": 2, "purpose": "x"}), "dice")
    fields = {e["field"] for e in body.get("errors", [])}
    assert {"dice", "dise"} <= fields, body
    assert kgp.version() == before


@pytest.mark.parametrize(
    ("path", "payload", "field"),
    [
        pytest.param("/rolls", {"purpose": "x"}, "dice", id="rolls-no-dice"),
        pytest.param("/rolls", {"dice": 2}, "purpose", id="rolls-no-purpose"),
        pytest.param("/rg-purchases", {"map_group": "Sx"}, "rg", id="rg-no-rg"),
        # 8.6195: the sample CG has two Map Groups, and the maximum counts per group.
        pytest.param("/rg-purchases", {"rg": "F1"}, "map_group", id="rg-no-map-group"),
        pytest.param(
            "/rg-purchases", {"rgs": [{"rg": "F1"}]}, "rgs.0.map_group", id="rg-batch-no-map-group"
        ),
        pytest.param("/recon", {}, "cpp", id="recon-no-cpp"),
        pytest.param("/rolls", None, "body", id="rolls-no-body"),
    ],
)
def test_missing_required_field(kgp: Game, path: str, payload: Any, field: str) -> None:
    before = kgp.version()
    invalid(kgp.post("German", path, payload), field)
    assert kgp.version() == before


# ------------------------------------------------------------ unknown things


@pytest.mark.parametrize(
    "campaign_id",
    [
        "00000000-0000-0000-0000-000000000000",
        "3f2b8c4e-0d4a-4b8e-9c1a-7e5d2f6a9b10",
        "not-a-uuid",
        "12345",
        "CG%20I",
    ],
    ids=["nil-uuid", "random-uuid", "not-a-uuid", "number", "campaign-name"],
)
def test_unknown_campaign_id_is_404(kgp: Game, campaign_id: str) -> None:
    before = kgp.version()
    url = f"/v1/campaigns/{campaign_id}"
    problem(kgp.client.get(url, headers=kgp.h("German")), 404)
    problem(
        kgp.client.post(url + "/rolls", json={"dice": 2, "purpose": "x"}, headers=kgp.h("German")),
        404,
    )
    problem(kgp.client.get(url + "/roster", headers=kgp.h("German")), 404)
    assert kgp.version() == before


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        pytest.param({"ruleset": "asl", "campaign": "CG I"}, "ruleset", id="unknown-ruleset"),
        pytest.param({"ruleset": "KGP", "campaign": "CG I"}, "ruleset", id="ruleset-case"),
        pytest.param({"ruleset": "kgp", "campaign": "CG IV"}, "campaign", id="unknown-campaign"),
        pytest.param({"ruleset": "abtf", "campaign": "CG I"}, "start_date", id="abtf-no-start"),
        pytest.param(
            {"ruleset": "abtf", "campaign": "CG I", "start_date": "25 AM"},
            "start_date",
            id="abtf-unknown-start",
        ),
        pytest.param(
            {"ruleset": "kgp", "campaign": "CG I", "start_date": "19 PM"},
            "start_date",
            id="kgp-wrong-start",
        ),
        pytest.param(
            {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"Russian": 2}},
            "initial_cpp",
            id="initial-cpp-side",
        ),
        pytest.param(
            {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": -1}},
            "initial_cpp",
            id="initial-cpp-negative",
        ),
        pytest.param({"campaign": "CG I"}, "ruleset", id="missing-ruleset"),
        pytest.param({"ruleset": "kgp"}, "campaign", id="missing-campaign"),
        pytest.param(
            {"ruleset": "kgp", "campaign": "CG I", "rulset": "kgp"}, "rulset", id="extra-field"
        ),
        pytest.param({"ruleset": 1, "campaign": "CG I"}, "ruleset", id="ruleset-int"),
    ],
)
def test_create_campaign_refused(client: TestClient, payload: dict[str, Any], field: str) -> None:
    invalid(client.post("/v1/campaigns", json=payload), field)


def test_abtf_with_start_date(client: TestClient) -> None:
    r = client.post(
        "/v1/campaigns", json={"ruleset": "abtf", "campaign": "CG I", "start_date": "18 AM"}
    )
    data = created(r)
    assert data["cg_date"] == "18 AM"
    assert set(data["tokens"]) == {"British", "German", "referee"}
    game_view = client.get(
        f"/v1/campaigns/{data['id']}",
        headers={"Authorization": f"Bearer {data['tokens']['referee']}"},
    )
    assert game_view.status_code == 200, game_view.text
    assert game_view.json()["cg_date"] == "18 AM"


@pytest.mark.parametrize(
    ("cg_date", "mentions"),
    [
        pytest.param("25 AM", "25 AM", id="not-in-calendar"),
        pytest.param("19 N", "19 PM", id="not-the-next-date"),
        pytest.param("20 AM", "19 PM", id="skips-dates"),
        pytest.param("19 AM", "19 PM", id="current-date"),
        pytest.param("tomorrow", "tomorrow", id="not-a-date"),
        pytest.param("19 EVE", "19 EVE", id="abtf-period"),
    ],
)
def test_unknown_cg_date(kgp: Game, cg_date: str, mentions: str) -> None:
    kgp.finish_date()  # the Initial Scenario ends: a new CG Date may begin
    before = kgp.version()
    body = invalid(kgp.post("referee", "/cg-dates", {"cg_date": cg_date}), "cg_date")
    assert body.get("field") == "cg_date", body
    assert mentions in body["detail"], body
    assert kgp.version() == before
    assert kgp.get("referee").json()["cg_date"] == "19 AM"


@pytest.mark.parametrize("spelling", ["19pm", "19 PM", "Dec 19 PM", "december 19 pm", " 19PM "])
def test_kgp_date_spellings(kgp: Game, spelling: str) -> None:
    kgp.finish_date()
    data = next_date(kgp, {"cg_date": spelling})
    assert data["cg_date"] == "19 PM"


# ------------------------------------------------------------------ wrong side


def test_roster_unknown_side(kgp: Game) -> None:
    before = kgp.version()
    r = kgp.client.get(kgp.url + "/roster", params={"side": "Russian"}, headers=kgp.h("German"))
    invalid(r, "side")
    assert kgp.version() == before


def test_roster_referee_must_name_side(kgp: Game) -> None:
    invalid(kgp.get("referee", "/roster"), "side")


def test_rg_purchase_unknown_side(kgp: Game) -> None:
    before = kgp.version()
    r = kgp.post("German", "/rg-purchases", {"side": "Russian", **F1})
    invalid(r, "side")
    r = kgp.post("referee", "/rg-purchases", {"side": "Russian", **F1})
    invalid(r, "side")
    assert kgp.version() == before


@pytest.mark.parametrize("path", ["/cpp-replenishments", "/rg-purchases", "/recon"])
def test_referee_must_name_side(kgp: Game, path: str) -> None:
    at_19pm(kgp)
    before = kgp.version()
    payload = {
        "/cpp-replenishments": {},
        "/rg-purchases": F1,
        "/recon": {"cpp": 1},
    }[path]
    body = invalid(kgp.post("referee", path, payload), "side")
    assert body.get("field") == "side", body
    assert kgp.version() == before


def test_side_cannot_act_for_the_other_side(kgp: Game) -> None:
    at_19pm(kgp)
    before = kgp.version()
    problem(kgp.post("German", "/cpp-replenishments", {"side": "US"}), 403)
    problem(kgp.post("US", "/rg-purchases", {"side": "German", **F1}), 403)
    assert kgp.version() == before


# ------------------------------------------------------------------ free rolls


@pytest.mark.parametrize("dice", [0, 3, -1, 12])
def test_roll_dice_count(kgp: Game, dice: int) -> None:
    before = kgp.version()
    invalid(kgp.post("German", "/rolls", {"dice": dice, "purpose": "x"}), "dice")
    assert kgp.version() == before


def test_roll_dice_must_be_a_number_not_a_boolean(kgp: Game) -> None:
    """``{"dice": true}`` is a wrong type for ``"dice": 1|2``; it must not quietly
    become a 1-die roll that consumes a roll index (a consumed index is never
    given back, DESIGN §2)."""
    before = kgp.version()
    invalid(kgp.post("German", "/rolls", {"dice": True, "purpose": "x"}), "dice")
    assert kgp.version() == before


def test_roll_purpose_length(kgp: Game) -> None:
    before = kgp.version()
    invalid(kgp.post("German", "/rolls", {"dice": 2, "purpose": "p" * 201}), "purpose")
    invalid(kgp.post("German", "/rolls", {"dice": 2, "purpose": ""}), "purpose")
    invalid(kgp.post("German", "/rolls", {"dice": 2, "purpose": "   "}), "purpose")
    assert kgp.version() == before
    data = created(kgp.post("German", "/rolls", {"dice": 2, "purpose": "p" * 200}))
    assert data["purpose"] == "p" * 200
    assert kgp.version() > before


@pytest.mark.parametrize("purpose", ["kgp:8.616 CPP Replenishment", "kgp:", "kgp:my own table"])
def test_roll_purpose_reserved_prefix(kgp: Game, purpose: str) -> None:
    before = kgp.version()
    body = invalid(kgp.post("German", "/rolls", {"dice": 2, "purpose": purpose}), "purpose")
    assert "kgp:" in body["detail"], body
    assert kgp.version() == before


# ------------------------------------------------------------- rule refusals


def test_overspending_on_initial_date(kgp: Game) -> None:
    before = kgp.version()
    # I1 costs 4 CPP on the sample chart; the German holds 2.
    body = refused(kgp.post("German", "/rg-purchases", {"rg": "I1", "map_group": "Sx"}), "8.619")
    assert "2" in body["detail"]
    assert kgp.version() == before
    # 2 CPP are there to spend: F1 costs 2 (and has no CG Date maximum).
    created(kgp.post("German", "/rg-purchases", F1))
    before = kgp.version()
    refused(kgp.post("German", "/rg-purchases", F1), "8.619")
    assert kgp.version() == before


def test_rg_purchase_must_be_on_the_chart_at_its_price(kgp: Game) -> None:
    """DESIGN §10: the price comes from the side's RG chart; a ``cpp`` given
    must equal it (8.6194), and an RG not on the chart is 422."""
    before = kgp.version()
    body = invalid(kgp.post("German", "/rg-purchases", {**F1, "cpp": 1}), "cpp")
    assert body["detail"].startswith("8.6194:"), body
    assert "2" in body["detail"], body
    batch = {"rgs": [F1, {**F1, "cpp": 3}]}
    body = invalid(kgp.post("German", "/rg-purchases", batch), "rgs.1.cpp")
    assert body["detail"].startswith("8.6194:"), body
    # A batch of one names its item too, as sent.
    invalid(kgp.post("German", "/rg-purchases", {"rgs": [{**F1, "cpp": 3}]}), "rgs.0.cpp")
    invalid(kgp.post("German", "/rg-purchases", {"rgs": [{"rg": "I1"}]}), "rgs.0.map_group")
    # V3 is on the US chart, not on the German one.
    body = invalid(kgp.post("German", "/rg-purchases", {"rg": "V3", "map_group": "Sx"}), "rg")
    assert "V3" in body["detail"], body
    invalid(kgp.post("German", "/rg-purchases", {**F1, "map_group": "Sz"}), "map_group")
    assert kgp.version() == before
    purchase = created(kgp.post("German", "/rg-purchases", {**F1, "cpp": 2}))
    assert kgp.version() > before
    line = roster_line(kgp, "German", "German", "19 AM")
    assert [(p["rg"], p["cpp"], p["seq"]) for p in line["rg_purchased"]] == [
        ("F1", 2, purchase["seq"])
    ]


def test_replenishment_on_initial_date(kgp: Game) -> None:
    before = kgp.version()
    refused(kgp.post("German", "/cpp-replenishments", {}), "8.6162")
    refused(kgp.post("referee", "/cpp-replenishments", {"side": "US"}), "8.6162")
    assert kgp.version() == before


def test_recon_on_initial_date(kgp: Game) -> None:
    before = kgp.version()
    refused(kgp.post("German", "/recon", {"cpp": 1}), "8.622")
    assert kgp.version() == before


def test_rg_purchase_before_replenishment(kgp: Game) -> None:
    at_19pm(kgp)
    before = kgp.version()
    # 8.616 is the step's required action: it cannot be passed before it (DESIGN §8).
    refused(kgp.post("German", "/rg-purchases", F1), "8.616")
    refused(kgp.post("German", "/recon", {"cpp": 1}), "8.616")
    assert kgp.version() == before


def test_rg_purchase_after_recon(kgp: Game) -> None:
    at_19pm(kgp, "German")
    created(kgp.post("German", "/recon", {"cpp": 1}))
    before = kgp.version()
    refused(kgp.post("German", "/rg-purchases", F1), "8.6")
    assert kgp.version() == before


def test_second_replenishment_same_date(kgp: Game) -> None:
    at_19pm(kgp, "German")
    before = kgp.version()
    refused(kgp.post("German", "/cpp-replenishments", {}), "8.616")
    refused(kgp.post("referee", "/cpp-replenishments", {"side": "German"}), "8.616")
    assert kgp.version() == before


def test_second_recon_same_date(kgp: Game) -> None:
    at_19pm(kgp, "German")
    created(kgp.post("German", "/recon", {"cpp": 1}))
    before = kgp.version()
    refused(kgp.post("German", "/recon", {"cpp": 1}), "8.622")
    assert kgp.version() == before


def test_new_date_before_the_initial_scenario_ends(kgp: Game) -> None:
    """8.612: a new CG Date begins after CG-Scenario End or an Idle date; the
    referee cannot begin 19 PM while the Initial Scenario (19 AM) is unplayed."""
    before = kgp.version()
    body = refused(kgp.post("referee", "/cg-dates", {}), "8.612")
    assert "19 AM" in body["detail"], body
    refused(kgp.post("referee", "/cg-dates", {"cg_date": "19 PM"}), "8.612")
    assert kgp.version() == before
    assert kgp.get("referee").json()["cg_date"] == "19 AM"
    kgp.finish_date()
    assert next_date(kgp)["cg_date"] == "19 PM"


@pytest.mark.parametrize("done", [(), ("German",), ("US",)], ids=["none", "German", "US"])
def test_new_date_before_both_replenishments(kgp: Game, done: tuple[str, ...]) -> None:
    """A side reaches the end of a CG Date (Initiative 8.623, then an Idle date
    or a scenario) only past its 8.616 CPP Replenishment, so a new CG Date
    cannot begin (8.612) while a side has not made it; each missing side is named."""
    at_19pm(kgp, *done)
    before = kgp.version()
    body = refused(kgp.post("referee", "/cg-dates", {}), "8.612")
    assert "19 PM" in body["detail"], body
    missing = [side for side in ("US", "German") if side not in done]
    for side in missing:
        body = refused(kgp.post(side, "/reph/advance", {"to": "8.623"}), "8.616")
        assert side in body["detail"], body
        assert "/cpp-replenishments" in body["detail"], body
        refused(kgp.post(side, "/reph/advance", {"to": "scenario"}), "8.616")
    assert kgp.version() == before
    assert kgp.get("referee").json()["cg_date"] == "19 PM"
    # Once both have replenished, the date can end and the next one begin.
    for side in missing:
        replenish(kgp, side)
    assert kgp.next_date()["cg_date"] == "19 N"


def test_new_date_past_the_last_cg_date(kgp: Game) -> None:
    dates = kgp.get("referee").json()["cg_dates"]
    assert dates[0] == "19 AM"
    assert dates[-1] == "21 PM"
    for expected in dates[1:]:
        assert kgp.next_date()["cg_date"] == expected
        replenish(kgp, "US")
        replenish(kgp, "German")
    kgp.finish_date()  # 21 PM ends too: only the calendar stops a new date
    before = kgp.version()
    body = refused(kgp.post("referee", "/cg-dates", {}), "8.612")
    assert "21 PM" in body["detail"], body
    refused(kgp.post("referee", "/cg-dates", {"cg_date": "21 N"}), "8.612")
    assert kgp.version() == before
    assert kgp.get("referee").json()["cg_date"] == "21 PM"


# ---------------------------------------------------------- 8.6162 EX check


def test_roster_cpp_columns_follow_8_6162(kgp: Game) -> None:
    at_19pm(kgp)
    repl = replenish(kgp, "German")
    dice = repl["roll"]["dice"]
    assert repl["roll"]["secret"] is True
    assert len(dice) == 2
    assert all(1 <= d <= 6 for d in dice)
    dr = sum(dice)

    line = roster_line(kgp, "German", "German", "19 PM")
    assert line["cpp_base"] == 35
    assert line["start"] == 2
    assert line["repl"] == max(0, 35 - dr)
    assert line["total"] == line["start"] + line["repl"]
    assert line["left"] == line["total"]
    total = line["total"]

    # I1 costs 4 CPP on the sample chart.
    created(kgp.post("German", "/rg-purchases", {"rg": "I1", "map_group": "Sx"}))
    kgp.advance("German", "8.622")  # 8.620: the rolls that determine the I1 first
    created(kgp.post("German", "/recon", {"cpp": 1}))
    line = roster_line(kgp, "German", "German", "19 PM")
    assert line["spent"] == 4
    assert line["left"] == total - 4
    assert line["recon_cpp"] == 1
    assert line["rg_purchased"][0]["rg"] == "I1"
    assert line["rg_purchased"][0]["cpp"] == 4

    # the referee's Roster agrees
    assert roster_line(kgp, "referee", "German", "19 PM") == line

    replenish(kgp, "US")
    assert kgp.next_date()["cg_date"] == "19 N"
    nxt = roster_line(kgp, "German", "German", "19 N")
    assert nxt["start"] == line["left"] - 1 == total - 5
    assert nxt["repl"] is None


# ------------------------------------------------------------------- SG CG


def test_sg_new_date_must_be_named(client: TestClient) -> None:
    game = Game(client, {"ruleset": "sg", "campaign": "SG", "title": "sg"})
    assert game.get("referee").json()["cg_date"] == "6 Morning"
    before = game.version()
    # 4.0: not before the Initial Scenario has ended, even when the date is named.
    refused(game.post("referee", "/cg-dates", {"cg_date": "6 Afternoon"}), "4.0")
    assert game.version() == before
    game.finish_date()  # the Initial Scenario ends: a new CG Date may begin
    before = game.version()
    body = invalid(game.post("referee", "/cg-dates", {}), "cg_date")
    assert body.get("field") == "cg_date", body
    invalid(game.post("referee", "/cg-dates", {"cg_date": "6 Morning"}), "cg_date")
    invalid(game.post("referee", "/cg-dates", {"cg_date": "6 PM"}), "cg_date")
    assert game.version() == before

    data = next_date(game, {"cg_date": "6 Afternoon"})
    assert data["cg_date"] == "6 Afternoon"
    assert game.get("referee").json()["cg_date"] == "6 Afternoon"
    game.finish_date()
    before = game.version()
    invalid(game.post("referee", "/cg-dates", {"cg_date": "6 morning"}), "cg_date")
    assert game.version() == before
    assert next_date(game, {"cg_date": "dec 7 morning"})["cg_date"] == "7 Morning"


def test_refusals_leave_no_event_behind(kgp: Game) -> None:
    """After a run of refusals, the log holds only what the successful requests wrote."""
    initial = events(kgp)
    kgp.post("German", "/rg-purchases", {"rg": "I1", "map_group": "Sx"})  # 4 CPP, 2 held
    kgp.post("German", "/rg-purchases", {"rg": "I2", "map_group": "Sx"})  # not on the chart
    kgp.post("German", "/rg-purchases", {**F1, "cpp": 3})  # not its price
    kgp.post("German", "/recon", {"cpp": 1})
    kgp.post("German", "/cpp-replenishments", {})
    kgp.post("German", "/rolls", {"dice": 3, "purpose": "x"})
    kgp.post("German", "/rolls", {"dice": 2, "purpose": "kgp:x"})
    kgp.post("referee", "/cg-dates", {"cg_date": "25 AM"})
    assert events(kgp) == initial
    seqs = [e["seq"] for e in initial]
    assert seqs == list(range(1, len(seqs) + 1))
