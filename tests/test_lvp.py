"""LVP totals and CG-scenario victory (DESIGN §9, issue 14 item 4 in part):
each CG-Scenario End records the Current-LVP Totals from Control (8.6032), the
new CG-LVP Totals (8.6033) and the winner by 8.6234; ``GET /lvp`` lists them
with one row per Idle date."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Game, created, ok
from fastapi.testclient import TestClient

pytestmark = pytest.mark.shared_app

#: A hand-made map group: four Strategic Locations worth 10, 5, 3 and 4 LVP,
#: all German-Controlled at the start.
HEXES = [
    {"hex": "A1", "q": 0, "r": 1, "strategic": True, "lvp": 10},
    {"hex": "A2", "q": 0, "r": 2, "strategic": True, "lvp": 5},
    {"hex": "A3", "q": 0, "r": 3, "strategic": True, "lvp": 3},
    {"hex": "A4", "q": 0, "r": 4, "strategic": True, "lvp": 4},
    {"hex": "B1", "q": 1, "r": 1},
]


def _game(client: TestClient) -> Game:
    sample: dict[str, Any] = ok(client.get("/v1/rulesets/kgp/sample-definition"))
    group = {
        "id": "St",
        "title": "hand-made",
        "hexes": HEXES,
        "initial_control": {h["hex"]: "German" for h in HEXES if "lvp" in h},
    }
    definition = {**sample, "map_groups": [group], "rg_chart": sample["rg_chart"]}
    body = {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": 2}}
    return Game(client, {**body, "definition": definition})


def _control(game: Game, **sides: str) -> None:
    locations = [{"hex": hx, "side": side} for hx, side in sides.items()]
    created(game.post("referee", "/control", {"map_group": "St", "locations": locations}))


def _play(game: Game, us: str, german: str) -> None:
    """The sides reach 8.623, choose their chits, and complete their steps."""
    game.replenish()
    for side in ("US", "German"):
        game.advance(side, "8.623")
    created(game.post("US", "/initiative", {"chit": us}))
    created(game.post("German", "/initiative", {"chit": german}))


def _end(game: Game, cvp: tuple[int, int] = (0, 0)) -> dict[str, Any]:
    for side in ("US", "German"):
        game.advance(side, "scenario")
    body = {"cvp": {"US": cvp[0], "German": cvp[1]}}
    out: dict[str, Any] = created(game.post("referee", "/scenario-end", body))
    return out


def test_8_6033_ex_cg_lvp_totals_and_8_6234_winners(client: TestClient) -> None:
    """8.6033 EX: "If the Americans end the CG I Initial Scenario Controlling
    Locations worth 10 LVP, their current LVP and CG-LVP Totals for that CG Date
    are '10'. If at the next CG-Scenario End, on 19 Dec PM, they Control
    additional Locations worth 5 LVP ... their new Current-LVP Total is '15' and
    their new CG-LVP Total is 25 (15 + 10). If on 19 Dec N ... their
    Current-LVP Total has dropped to '12', their CG-LVP Total will then be 37."""
    game = _game(client)
    assert ok(game.get("US", "/lvp"))["map_group_totals"] == {"St": 22}
    _control(game, A1="US")
    recorded = _end(game, (4, 6))["event"]["payload"]["lvp"]
    assert recorded["current_lvp"] == {"US": 10, "German": 12}
    created(game.post("referee", "/cg-dates", {}))  # 19 PM: a Dual Attack
    _play(game, "attack", "attack")
    _control(game, A2="US")
    _end(game)
    created(game.post("referee", "/cg-dates", {}))  # 19 N: a U.S. Assault
    _play(game, "attack", "idle")
    _control(game, A1="German", A3="US", A4="US")
    _end(game)
    rows = ok(game.get("German", "/lvp"))["rows"]
    assert [r["cg_date"] for r in rows] == ["19 AM", "19 PM", "19 N"]
    assert [r["scenario"] for r in rows] == ["initial", "dual-attack", "us-assault"]
    assert [r["current_lvp"]["US"] for r in rows] == [10, 15, 12]
    assert [r["cg_lvp"]["US"] for r in rows] == [10, 25, 37]
    assert [r["start_lvp"]["US"] for r in rows] == [0, 10, 15]
    assert [r["cg_lvp"]["German"] for r in rows] == [12, 12 + 7, 12 + 7 + 10]
    assert rows[0]["cvp"] == {"US": 4, "German": 6}
    # 8.6234a: in a Dual Attack "The Americans win if at CG-Scenario End their
    # Current-LVP Total is > what it was at scenario start": 15 > 10.
    assert (rows[1]["winner"], rows[1]["rule"]) == ("US", "8.6234a")
    # 8.6234b: the Assaulting side wins at >= 20% (FRU, at least 1) more: 15 needs
    # 18; the rest of 8.6234b is cut in the seed, so no winner is named.
    assert rows[2]["winner"] is None
    assert rows[2]["rule"].startswith("8.6234b: US did not win by LVP (needed 18)")
    # As of an event: before the 19 N scenario ended, two rows.
    version = game.version()
    assert len(ok(game.get("US", f"/lvp?at={version - 1}"))["rows"]) == 2


def test_an_idle_date_repeats_the_totals(client: TestClient) -> None:
    game = _game(client)
    _control(game, A1="US", A2="US")
    _end(game)
    created(game.post("referee", "/cg-dates", {}))
    _play(game, "idle", "idle")  # 19 PM: Idle
    rows = ok(game.get("US", "/lvp"))["rows"]
    assert [r["cg_date"] for r in rows] == ["19 AM", "19 PM"]
    idle = rows[1]
    assert idle["scenario"] == "idle"
    assert (
        idle["current_lvp"]
        == idle["start_lvp"]
        == rows[0]["current_lvp"]
        == {
            "US": 15,
            "German": 7,
        }
    )
    assert idle["cg_lvp"] == rows[0]["cg_lvp"]
    assert idle["winner"] is None
    assert idle["rule"].startswith("8.6232: an Idle date")
