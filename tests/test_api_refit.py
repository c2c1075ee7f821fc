"""Refit Phase over REST: the CG Date handshake (8.6, 8.6121) and secret RG
batches (8.619), from both sides' point of view."""

from __future__ import annotations

import pytest
from conftest import Game, assert_problem
from fastapi.testclient import TestClient

pytestmark = pytest.mark.shared_app


def german_holding(client: TestClient, cpp: int) -> Game:
    """A campaign whose German holds ``cpp`` CPP from the Initial Scenario."""
    body = {"ruleset": "kgp", "campaign": "CG I", "title": "t", "initial_cpp": {"German": cpp}}
    return Game(client, body)


def test_next_cg_date_needs_both_sides_or_the_referee(kgp: Game) -> None:
    """8.6: each side performs the RePh; one side cannot end the other's.
    8.6121: the next CG Date begins only after CG-Scenario End (or an Idle date)."""
    version = kgp.version()
    for role in ("US", "German", "referee"):
        refused = assert_problem(kgp.post(role, "/cg-dates", {}), 409)
        assert refused["detail"].startswith("8.612:"), refused
        assert "CG-Scenario End" in refused["detail"]
    assert kgp.version() == version
    # The German can buy before the Initial Scenario (8.619 is a † step): F1 costs
    # the 2 CPP held.
    body = {"rg": "F1", "cpp": 2, "map_group": "Sx"}
    assert kgp.post("German", "/rg-purchases", body).status_code == 201
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


def test_a_secret_batch_is_one_stub_and_hides_spent(client: TestClient) -> None:
    """8.619: "the RG(s) purchased may all be kept secret" - a batch is one event,
    and even an empty secret batch hides whether anything was bought."""
    kgp = german_holding(client, 7)
    r = kgp.post("German", "/rg-purchases", {"rgs": []})
    assert r.status_code == 201, r.text
    empty = r.json()["seq"]
    line = kgp.get("US", "/roster?side=German").json()["lines"][0]
    assert (line["spent"], line["left"]) == (None, None)
    assert {"rg_purchased", "spent", "left"} <= set(line["hidden"])

    # I1 (4 CPP) and HW1 (3 CPP) on the sample chart: the 7 CPP held.
    body = {"rgs": [{"rg": "I1", "map_group": "Sx"}, {"rg": "HW1", "map_group": "Sx"}]}
    seq = kgp.post("German", "/rg-purchases", body).json()["seq"]
    # Each batch is one sealed record (DESIGN §2a), and the US reads the empty
    # one and the one of two RG alike: the same type and public part, no secret.
    log = {e["seq"]: e for e in kgp.get("US", "/events").json()["items"]}
    stubs = [log[empty], log[seq]]
    assert [(e["type"], e["secret"]) for e in stubs] == [("RecordSealed", None)] * 2
    assert stubs[0]["payload"] == stubs[1]["payload"]
    assert stubs[0]["payload"]["step"] == "8.619"
    own = kgp.get("German", "/roster").json()["lines"][0]
    assert [(p["rg"], p["seq"]) for p in own["rg_purchased"]] == [("I1", seq), ("HW1", seq)]
    assert (own["spent"], own["left"], own["hidden"]) == (7, 0, [])


def test_purchase_body_takes_one_form(kgp: Game) -> None:
    """Either one RG or a batch; in a batch, cpp and map_group go on each item.
    Each body below would buy F1 (the 2 CPP held) but for its form."""
    version = kgp.version()
    item = {"rg": "F1", "map_group": "Sx"}
    for body in (
        {**item, "rgs": []},
        {"rgs": [item], "cpp": 2},
        {"rgs": [item], "map_group": "Sx"},
        {},
        {"rgs": [], "secret": False},
        {**item, "rg": "F1\n"},
    ):
        assert_problem(kgp.post("German", "/rg-purchases", body), 422)
    assert kgp.version() == version
    assert kgp.post("German", "/rg-purchases", item).status_code == 201


def test_a_revealed_purchase_shows_while_another_stays_hidden(client: TestClient) -> None:
    kgp = german_holding(client, 7)
    first = kgp.post("German", "/rg-purchases", {"rg": "I1", "map_group": "Sx"}).json()["seq"]
    assert kgp.post("German", "/rg-purchases", {"rg": "HW1", "map_group": "Sy"}).status_code == 201
    assert kgp.post("German", f"/events/{first}/reveal").status_code == 200
    line = kgp.get("US", "/roster?side=German").json()["lines"][0]
    assert [(p["rg"], p["seq"]) for p in line["rg_purchased"]] == [("I1", first)]
    assert {"rg_purchased", "spent", "left"} <= set(line["hidden"])
    assert (line["spent"], line["left"]) == (None, None)
