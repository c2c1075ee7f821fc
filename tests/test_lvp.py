"""LVP totals and CG-scenario victory (DESIGN §9, issue 14 item 4 in part):
each CG-Scenario End records the Current-LVP Totals from Control (8.6032), the
new CG-LVP Totals (8.6033) and the winner by 8.6234; ``GET /lvp`` lists them
with one row per Idle date."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Game, created, ok
from fastapi.testclient import TestClient
from forge import parse, reseal

from cgledger.projections.lvp import LvpProjection
from cgledger.verify import VerificationError, verify_bytes

pytestmark = pytest.mark.shared_app

SIDES = ("US", "German")

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


def _export(game: Game) -> bytes:
    r = game.client.get(f"{game.url}/export", headers=game.h("referee"))
    assert r.status_code == 200, r.text
    content: bytes = r.content
    return content


def _8_6033_ex(game: Game) -> None:
    """The 8.6033 EX: 10, then 15 (CG-LVP 25), then 12 (CG-LVP 37)."""
    _control(game, A1="US")
    _end(game)
    created(game.post("referee", "/cg-dates", {}))  # 19 PM
    _play(game, "attack", "attack")
    _control(game, A2="US")
    _end(game)
    created(game.post("referee", "/cg-dates", {}))  # 19 N
    _play(game, "attack", "idle")
    _control(game, A1="German", A3="US", A4="US")
    _end(game)


def test_8_6033_ex_followed_by_an_idle_date(client: TestClient) -> None:
    """8.6232 note 2: on an Idle date "each side calculates its Current-LVP and
    CG-LVP Totals and records them (in the current CG Date's line)"; 8.6033:
    "its new CG-LVP Total [is] its Current-LVP Total [added] to its preceding CG
    Date's CG-LVP Total". After the EX's 19 N (Current 12, CG-LVP 37), an Idle
    20 AM reads Current 12 and CG-LVP 12 + 37; the next CG-Scenario End adds
    to the Idle date's CG-LVP, its preceding CG Date's."""
    game = _game(client)
    _8_6033_ex(game)
    ex = ok(game.get("US", "/lvp"))["rows"][-1]
    assert (ex["cg_date"], ex["current_lvp"]["US"], ex["cg_lvp"]["US"]) == ("19 N", 12, 37)
    created(game.post("referee", "/cg-dates", {}))  # 20 AM: Idle
    _play(game, "idle", "idle")
    idle = ok(game.get("German", "/lvp"))["rows"][-1]
    assert (idle["cg_date"], idle["scenario"], idle["winner"]) == ("20 AM", "idle", None)
    assert idle["rule"].startswith("8.6232: an Idle date")
    assert idle["current_lvp"] == idle["start_lvp"] == ex["current_lvp"] == {"US": 12, "German": 10}
    assert idle["cg_lvp"] == {"US": 12 + 37, "German": 10 + ex["cg_lvp"]["German"]}
    # The event records the row (the CG Roster's line of the Idle date).
    determined = ok(game.get("referee", f"/events?after={game.version() - 1}"))["items"][-1]
    assert determined["type"] == "InitiativeDetermined"
    assert determined["payload"]["lvp"]["cg_lvp"] == idle["cg_lvp"]
    # 20 PM: a scenario, no Control change; its preceding CG Date is the Idle 20 AM.
    created(game.post("referee", "/cg-dates", {}))
    _play(game, "attack", "attack")
    _end(game)
    after = ok(game.get("US", "/lvp"))["rows"][-1]
    assert after["cg_date"] == "20 PM"
    assert after["start_lvp"] == idle["current_lvp"]
    assert after["cg_lvp"] == {s: idle["cg_lvp"][s] + after["current_lvp"][s] for s in SIDES}
    assert after["cg_lvp"]["US"] == 12 + 12 + 37
    # ``cgledger verify`` re-counts the Idle row and the scenario end after it.
    projection = LvpProjection().apply_all(parse(_export(game))[1])
    assert projection.mismatches == []
    assert (projection.checked, projection.idle_checked) == (4, 1)
    assert verify_bytes(_export(game)).lvp_rows_checked == 4


def test_an_idle_date_calculates_its_totals(client: TestClient) -> None:
    """8.6232 note 2 on the first CG Date after the Initial Scenario."""
    game = _game(client)
    _control(game, A1="US", A2="US")
    _end(game)
    created(game.post("referee", "/cg-dates", {}))
    _play(game, "idle", "idle")  # 19 PM: Idle
    rows = ok(game.get("US", "/lvp"))["rows"]
    assert [r["cg_date"] for r in rows] == ["19 AM", "19 PM"]
    first, idle = rows
    assert idle["scenario"] == "idle"
    assert idle["current_lvp"] == idle["start_lvp"] == first["current_lvp"]
    assert first["current_lvp"] == {"US": 10 + 5, "German": 3 + 4}
    assert idle["cg_lvp"] == {s: first["cg_lvp"][s] + first["current_lvp"][s] for s in SIDES}
    assert idle["winner"] is None
    assert idle["rule"].startswith("8.6232: an Idle date")


def test_an_idle_date_reads_the_control_of_its_date(client: TestClient) -> None:
    """8.6232 note 2's Current-LVP is that of the Idle date: Control recorded
    after the last CG-Scenario End counts."""
    game = _game(client)
    _end(game)  # 19 AM: the German holds all 22
    created(game.post("referee", "/cg-dates", {}))
    _control(game, A3="US")
    _play(game, "idle", "idle")
    first, idle = ok(game.get("US", "/lvp"))["rows"]
    assert first["current_lvp"] == {"US": 0, "German": 22}
    assert idle["start_lvp"] == first["current_lvp"]
    assert idle["current_lvp"] == {"US": 3, "German": 19}
    assert idle["cg_lvp"] == {"US": 0 + 3, "German": 22 + 19}


def test_a_forged_idle_total_fails_verification(client: TestClient) -> None:
    game = _game(client)
    _end(game)
    created(game.post("referee", "/cg-dates", {}))
    _play(game, "idle", "idle")
    header, events = parse(_export(game))
    (idle,) = [e for e in events if e["type"] == "InitiativeDetermined"]
    idle["payload"]["lvp"]["cg_lvp"]["US"] += 1
    with pytest.raises(VerificationError, match=r"Idle date.*cg_lvp") as caught:
        verify_bytes(reseal(header, events))
    assert caught.value.seq == idle["seq"]


def test_an_abtf_idle_date_calculates_no_totals(client: TestClient) -> None:
    """ABtF 9.62132 note 2: "No scenario generated for this CG Date; each side
    repeats RePh steps 9.612-.620": no LVP totals (ABtF has no CG-LVP), so the
    Idle row repeats the last one and the next scenario end adds to that."""
    game = Game(client, {"ruleset": "abtf", "campaign": "CG I", "start_date": "18 AM"})
    game.end_scenario()
    game.next_date()
    game.finish_date()  # 18 PM: Idle
    game.next_date()
    game.finish_date(play=True)  # 18 EVE: a scenario
    rows = ok(game.get("British", "/lvp"))["rows"]
    assert [r["scenario"] for r in rows][-2:] == ["idle", "dual-attack"]
    first, idle, played = rows[-3:]
    assert idle["cg_lvp"] == first["cg_lvp"]
    assert "lvp" not in _initiative_events(game)[0]["payload"]
    assert played["cg_lvp"] == {
        s: first["cg_lvp"][s] + played["current_lvp"][s] for s in ("British", "German")
    }
    assert verify_bytes(_export(game)).lvp_rows_checked == 2


def _initiative_events(game: Game) -> list[dict[str, Any]]:
    _, events = parse(_export(game))
    return [e for e in events if e["type"] == "InitiativeDetermined"]


def test_an_unrecorded_idle_row_is_read_from_the_last_row() -> None:
    """An Idle date written before the ledger kept its row (its event has no
    ``lvp``) reads the last row's Current-LVP and 8.6033's CG-LVP; a scenario
    end after it may chain through it (the ledger today) or skip it (the
    release that wrote it, or ABtF)."""
    created = {"seq": 1, "type": "CampaignCreated", "payload": {"sides": ["A", "B"], "definition": {
        "map_groups": [{"id": "M", "hexes": [{"hex": "A1", "lvp": 3}, {"hex": "A2", "lvp": 5}],
                        "initial_control": {"A1": "A", "A2": "B"}}]}}}  # fmt: skip
    first = {"start_lvp": {"A": 3, "B": 5}, "current_lvp": {"A": 3, "B": 5},
             "cg_lvp": {"A": 3, "B": 5}}  # fmt: skip
    idle = {"seq": 3, "type": "InitiativeDetermined", "payload": {"scenario": "idle"}}
    through = {"start_lvp": {"A": 3, "B": 5}, "current_lvp": {"A": 3, "B": 5},
               "cg_lvp": {"A": 9, "B": 15}}  # fmt: skip
    skipping = {**through, "cg_lvp": {"A": 6, "B": 10}}
    forged = {**through, "cg_lvp": {"A": 7, "B": 15}}
    for second, good in ((through, True), (skipping, True), (forged, False)):
        records = [
            created,
            {"seq": 2, "type": "ScenarioEnded", "payload": {"cg_date": "d1", "lvp": first}},
            idle,
            {"seq": 4, "type": "ScenarioEnded", "payload": {"cg_date": "d3", "lvp": second}},
        ]
        projection = LvpProjection().apply_all(records)
        assert (projection.mismatches == []) is good
        assert sorted(projection.rows) == [2, 4]
