"""Refit Phase over REST: the CG Date handshake (8.6, 8.6121) and secret RG
batches (8.619), from both sides' point of view."""

from __future__ import annotations

from conftest import Game, assert_problem


def test_next_cg_date_needs_both_sides_or_the_referee(kgp: Game) -> None:
    """8.6: each side performs the RePh; one side cannot end the other's.
    8.6121: the next CG Date begins only after CG-Scenario End (or an Idle date)."""
    version = kgp.version()
    for role in ("US", "German", "referee"):
        refused = assert_problem(kgp.post(role, "/cg-dates", {}), 409)
        assert refused["detail"].startswith("8.612:"), refused
        assert "CG-Scenario End" in refused["detail"]
    assert kgp.version() == version
    # The German can buy before the Initial Scenario (8.619 is a † step).
    assert kgp.post("German", "/rg-purchases", {"rg": "I2", "cpp": 2}).status_code == 201
    kgp.end_scenario()
    r = kgp.post("US", "/cg-dates", {})
    assert r.status_code == 201, r.text
    assert (r.json()["cg_date"], r.json()["ready_for_next_cg_date"]) == ("19 AM", ["US"])
    version = kgp.version()
    refused = assert_problem(kgp.post("US", "/cg-dates", {}), 409)
    assert "waiting for German" in refused["detail"]
    assert kgp.version() == version
    # The US being ready does not end the German's steps before 8.612 (8.606 Escape).
    r = kgp.post("German", "/tables/kgp:8.606-infantry/rolls", {})
    assert r.status_code == 201, r.text
    r = kgp.post("German", "/cg-dates", {})
    assert (r.status_code, r.json()["cg_date"], r.json()["ready_for_next_cg_date"]) == (
        201,
        "19 PM",
        [],
    )
    types = [e["type"] for e in kgp.get("US", "/events").json()["items"]]
    assert types[-1] == "CGDateBegan"
    assert "CGDateReady" in types


def test_a_secret_batch_is_one_stub_and_hides_spent(kgp: Game) -> None:
    """8.619: "the RG(s) purchased may all be kept secret" - a batch is one event,
    and even an empty secret batch hides whether anything was bought."""
    r = kgp.post("German", "/rg-purchases", {"rgs": []})
    assert r.status_code == 201, r.text
    line = kgp.get("US", "/roster?side=German").json()["lines"][0]
    assert (line["spent"], line["left"]) == (None, None)
    assert {"rg_purchased", "spent", "left"} <= set(line["hidden"])

    body = {"rgs": [{"rg": "I2", "cpp": 1}, {"rg": "HW1", "cpp": 1}]}
    seq = kgp.post("German", "/rg-purchases", body).json()["seq"]
    stubs = [e for e in kgp.get("US", "/events").json()["items"] if e["type"] == "RGPurchased"]
    assert [e["secret"] for e in stubs] == [None, None]
    own = kgp.get("German", "/roster").json()["lines"][0]
    assert [(p["rg"], p["seq"]) for p in own["rg_purchased"]] == [("I2", seq), ("HW1", seq)]
    assert (own["spent"], own["left"], own["hidden"]) == (2, 0, [])


def test_purchase_body_takes_one_form(kgp: Game) -> None:
    version = kgp.version()
    for body in (
        {"rg": "I2", "cpp": 1, "rgs": []},
        {"rg": "I2"},
        {},
        {"rgs": [], "secret": False},
        {"rg": "I2\n", "cpp": 1},
    ):
        assert_problem(kgp.post("German", "/rg-purchases", body), 422)
    assert kgp.version() == version


def test_a_revealed_purchase_shows_while_another_stays_hidden(kgp: Game) -> None:
    first = kgp.post("German", "/rg-purchases", {"rg": "I2", "cpp": 1}).json()["seq"]
    kgp.post("German", "/rg-purchases", {"rg": "V3", "cpp": 1})
    assert kgp.post("German", f"/events/{first}/reveal").status_code == 200
    line = kgp.get("US", "/roster?side=German").json()["lines"][0]
    assert [(p["rg"], p["seq"]) for p in line["rg_purchased"]] == [("I2", first)]
    assert {"rg_purchased", "spent", "left"} <= set(line["hidden"])
    assert (line["spent"], line["left"]) == (None, None)
