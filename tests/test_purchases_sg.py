"""3.4-3.7 of the short US/German CG: the American spends his Purchase Points
(2.92) on the American Reinforcement Table (the CG definition's rg_chart),
within each group's scenario maximum, secretly; each Armor Group makes the 3.4
armor type dr, the 3.6 leader DR, and an M4 group the 3.7 M4 Model DR, each
in its own step; the record and the points left stay hidden from the German."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from fastapi.testclient import TestClient

pytestmark = pytest.mark.shared_app

ORDER = ["2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "2.7", "2.8", "2.9", "3.1", "3.2", "3.3",
         "3.4", "3.5", "3.6", "3.7", "3.8"]  # fmt: skip


def _walk(game: Game, to: str) -> None:
    """Both sides, American first (1.2), complete their steps up to ``to``."""
    for _ in range(80):
        current = ok(game.get("referee", "/reph"))["current"]
        german = current["German"]
        if current["American"] == to and german in ORDER and ORDER.index(german) >= ORDER.index(to):
            return
        for side in ("American", "German"):
            at = current[side]
            # The next step that applies to the side (2.9 is the American's only).
            for step in ORDER[ORDER.index(at) + 1 : ORDER.index(to) + 2] if at in ORDER else ():
                r = game.post(side, "/reph/advance", {"to": step})
                if r.status_code == 201 or "does not apply" not in r.text:
                    break
    raise AssertionError(f"could not reach {to}")


def _sg(client: TestClient) -> Game:
    game = Game(client, {"ruleset": "sg", "campaign": "SG"})
    # 2.92 EX: 63 VP scored, 55 needed, 41 CVP suffered: 33 Purchase Points.
    body = {"cvp": {"American": 10, "German": 41}, "vp": {"American": 63}, "vp_required": 55}
    created(game.post("referee", "/scenario-end", body))
    _walk(game, "3.4")
    return game


def _rows(game: Game, role: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = ok(game.get(role, "/rg-record?side=American"))["rows"]
    return rows


def test_3_4_points_and_the_scenario_maximum(client: TestClient) -> None:
    game = _sg(client)
    version = game.version()
    # A1 costs 15 and its scenario maximum is 1: two are refused, nothing appended.
    problem = assert_problem(
        game.post("American", "/rg-purchases", {"rgs": [{"rg": "A1"}, {"rg": "A1"}]}), 409
    )
    assert problem["detail"].startswith("3.4: CG Date maximum for A1 (1) reached")
    problem = assert_problem(
        game.post("American", "/rg-purchases", {"rgs": [{"rg": "A1"}, {"rg": "O1"}, {"rg": "I1"}]}),
        409,
    )
    assert problem["detail"] == "3.4: these groups cost 37 Purchase Points but the American has 33"
    assert game.version() == version
    assert_problem(game.post("German", "/rg-purchases", {"rg": "I1"}), 409)
    bought = created(game.post("American", "/rg-purchases", {"rgs": [{"rg": "A1"}, {"rg": "I1"}]}))
    roster = ok(game.get("American", "/roster"))
    assert (roster["purchase_points_spent"], roster["purchase_points_left"]) == (25, 8)
    hidden = ok(game.get("German", "/roster?side=American"))
    assert hidden["purchase_points_left"] is None
    assert "purchase_points_left" in hidden["hidden"]
    assert _rows(game, "German") == [
        {"seq": bought["seq"], "cg_date": "6 Morning", "redacted": True}
    ]
    rows = _rows(game, "American")
    assert [(r["rg"], r["cpp"]) for r in rows] == [("A1", 15), ("I1", 10)]
    assert rows[0]["needs"] == [
        "3.4 armor type dr for A1", "3.6 leader DR for A1", "3.7 M4 Model DR for A1",
    ]  # fmt: skip
    assert rows[1]["needs"] == ["3.6 leader DR for I1"]


def test_3_4_to_3_7_rolls_each_in_its_step(client: TestClient) -> None:
    game = _sg(client)
    bought = created(game.post("American", "/rg-purchases", {"rgs": [{"rg": "A1"}, {"rg": "I1"}]}))
    seq = bought["seq"]
    # 3.4's armor type dr is required before 3.4 is passed; the 3.6 DR waits for 3.6.
    problem = assert_problem(game.post("American", "/reph/advance", {"to": "3.6"}), 409)
    assert problem["detail"].startswith("3.4: ")
    early = assert_problem(
        game.post("American", "/rg-determinations", {"for_purchase": seq, "item": 1}), 409
    )
    assert "cannot act in 3.6" in early["detail"]
    armor = created(game.post("American", "/rg-determinations", {"for_purchase": seq, "item": 0}))
    # A secret purchase's rolls are one sealed record (DESIGN §2a), its table in its secret part.
    assert armor["event"]["type"] == "RecordSealed"
    assert [r["rule"] for r in armor["event"]["secret"]["rolls"]] == ["sg:3.4"]
    _walk(game, "3.6")
    for item in (0, 1):
        created(game.post("American", "/rg-determinations", {"for_purchase": seq, "item": item}))
    _walk(game, "3.7")
    created(game.post("American", "/rg-determinations", {}))
    rows = _rows(game, "American")
    assert [r["needs"] for r in rows] == [[], []]
    assert rows[0]["models"] is not None
    assert rows[0]["leader"] is not None
    assert rows[1]["leader"] is not None
    assert_problem(game.post("American", "/rg-determinations", {}), 409)
