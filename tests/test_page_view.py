"""``GET /page``, the campaign page's one read (DESIGN §12 "Cost"): each part
is exactly what its own route answers the same caller, so the page can show
nothing the caller could not read part by part; the map travels only when it
changed; the log window is the one asked for.

The scene holds a secret of each kind the page draws: a German Secret DR, a
sealed RG purchase, a pending Control proposal and a dispute. Runs on SQLite
and PostgreSQL (the ``client`` fixture)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from fastapi.testclient import TestClient

from cgledger.domain.rulesets import REGISTRY
from cgledger.service.page import ANSWERED_PROPOSALS

pytestmark = [pytest.mark.store, pytest.mark.shared_app]

ROLES = ("US", "German", "referee")


@pytest.fixture
def scene(kgp: Game) -> Game:
    created(kgp.post("German", "/rolls", {"dice": 2, "purpose": "ambush", "secret": True}))
    kgp.next_date()
    for side in ("US", "German"):
        kgp.advance(side, "8.619")
    created(
        kgp.post(
            "German", "/rg-purchases", {"rgs": [{"rg": "I1", "map_group": "Sx"}], "secret": True}
        )
    )
    created(
        kgp.post(
            "US",
            "/control",
            {"map_group": "Sx", "locations": [{"hex": "C1", "level": 0, "side": "US"}]},
        )
    )
    created(kgp.post("US", "/disputes", {"seq": 2, "claim": "that roll"}))
    return kgp


def _parts(game: Game, role: str) -> dict[str, Any]:
    """What each of the page's parts is, read from its own route."""
    sides = ("US", "German")
    return {
        "campaign": ok(game.get(role)),
        "reph": ok(game.get(role, "/reph")),
        "initiative": ok(game.get(role, "/initiative")),
        "rosters": {s: ok(game.get(role, f"/roster?side={s}")) for s in sides},
        "rg_records": {s: ok(game.get(role, f"/rg-record?side={s}")) for s in sides},
        "lvp": ok(game.get(role, "/lvp")),
        "dice_stats": ok(game.get(role, "/dice-stats")),
        "proposals": ok(game.get(role, "/proposals?limit=1000")),
        "disputes": ok(game.get(role, "/disputes?limit=1000")),
        "events": ok(game.get(role, "/events?after=0&limit=1000")),
    }


@pytest.mark.parametrize("role", ROLES)
def test_each_part_of_the_page_is_its_routes_answer(scene: Game, role: str) -> None:
    page = ok(scene.get(role, "/page?log_after=0"))
    for name, answer in _parts(scene, role).items():
        assert page[name] == answer, name
    assert page["version"] == page["campaign"]["version"] == scene.version()
    svg = scene.client.get(f"{scene.url}/setup-areas.svg?map_group=Sx", headers=scene.h(role))
    assert page["map"]["map_group"] == "Sx"
    assert page["map"]["svg"] == svg.text


def test_the_opponent_reads_no_secret_in_the_page(scene: Game) -> None:
    page = ok(scene.get("US", "/page?log_after=0"))
    text = str(page)
    assert "ambush" not in text
    assert "I1" not in str(page["rg_records"]["German"])
    stubs = [row for row in page["rg_records"]["German"]["rows"] if row.get("redacted")]
    assert [row["cg_date"] for row in stubs][-1] == "19 PM", stubs


def test_the_map_travels_only_when_it_changed(scene: Game) -> None:
    first = ok(scene.get("US", "/page?map_group=Sx"))["map"]
    assert first["svg"]
    again = ok(scene.get("US", f"/page?map_group=Sx&map_digest={first['digest']}"))["map"]
    assert again == {**first, "svg": None}
    other = ok(scene.get("US", f"/page?map_group=Sy&map_digest={first['digest']}"))["map"]
    assert other["map_group"] == "Sy"
    assert other["svg"]
    assert other["digest"] != first["digest"]
    # Control agreed changes the map: the same digest sent back gets the new one.
    (pending,) = ok(scene.get("German", "/proposals?status=pending&kind=control"))["items"]
    ok(scene.post("German", f"/proposals/{pending['seq']}/approve"))
    changed = ok(scene.get("US", f"/page?map_group=Sx&map_digest={first['digest']}"))["map"]
    assert changed["svg"]
    assert changed["digest"] != first["digest"]


def test_the_page_lists_every_pending_proposal_and_the_newest_answered(
    client: TestClient,
) -> None:
    """An old pending proposal stays on the page however many were answered
    after it; of the answered ones, the newest ``ANSWERED_PROPOSALS``."""
    game = Game(client, {"ruleset": "kgp", "campaign": "CG I", "title": "many"})
    body = {"map_group": "Sx", "locations": [{"hex": "C1", "level": 0, "side": "US"}]}
    old = created(game.post("US", "/control", body))["seq"]
    answered = []
    for _ in range(ANSWERED_PROPOSALS + 5):
        seq = created(game.post("German", "/control", body))["seq"]
        ok(game.post("German", f"/proposals/{seq}/withdraw"))
        answered.append(seq)
    for role in ROLES:
        shown = [p["seq"] for p in ok(game.get(role, "/page"))["proposals"]["items"]]
        assert shown == [old, *answered[-ANSWERED_PROPOSALS:]]


def test_the_log_is_the_window_asked_for(scene: Game) -> None:
    version = scene.version()
    newest = ok(scene.get("US", "/page"))["events"]["items"]
    assert [e["seq"] for e in newest] == list(range(max(1, version - 49), version + 1))
    tail = ok(scene.get("US", f"/page?log_after={version - 3}"))["events"]["items"]
    assert [e["seq"] for e in tail] == [version - 2, version - 1, version]


def test_every_rg_purchase_is_a_state_event() -> None:
    """``open_purchases`` reads the RGPurchased events in the aggregate's
    ``state_log``: every ruleset that buys RG keeps them there."""
    buying = [rs for rs in REGISTRY.values() if "rg-purchases" in rs.rules.actions]
    assert buying
    for rs in buying:
        assert "RGPurchased" in rs.rules.state_events, rs.id


def _bought(game: Game, role: str, body: dict[str, Any]) -> int:
    return int(created(game.post(role, "/rg-purchases", {"map_group": "Sx", **body}))["seq"])


def test_open_purchases_are_the_callers_own_rgpurchased_events(scene: Game) -> None:
    """The page's ``open_purchases`` is what the log filtered by type and actor
    answers: the caller's own open RGPurchased events, an undone one too; not
    one the referee bought for the side, nor a sealed (secret) one."""
    bought = _bought(scene, "US", {"rg": "I1", "secret": False})
    by_referee = _bought(scene, "referee", {"rg": "I1", "side": "US", "secret": False})
    undone = _bought(scene, "US", {"rg": "I1", "map_group": "Sy", "secret": False})
    created(scene.post("US", "/undo-requests", {"seqs": [undone], "reason": "the wrong RG"}))
    _bought(scene, "US", {"rg": "I1", "map_group": "Sy", "secret": True})
    listed = ok(scene.get("US", "/events?type=RGPurchased&actor=US&limit=1000"))["items"]
    assert [e["seq"] for e in listed] == [bought, undone]
    assert [e["seq"] for e in listed if e["reverted_by"]] == [undone]
    assert ok(scene.get("US", "/page"))["open_purchases"] == [bought, undone]
    assert by_referee not in ok(scene.get("US", "/page"))["open_purchases"]
    assert ok(scene.get("German", "/page"))["open_purchases"] == []
    assert ok(scene.get("referee", "/page"))["open_purchases"] == []


def test_an_unknown_map_group_is_refused(scene: Game) -> None:
    problem = assert_problem(scene.get("US", "/page?map_group=Nowhere"), 422)
    assert "Nowhere" in problem["detail"]
