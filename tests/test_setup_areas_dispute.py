"""A dispute on a Control record or a scenario end shows the Setup Areas and
the LVP before and after (issue 14, item 7): the hexes whose status changed,
both sides' areas, the two maps to compare, and the LVP rows."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Game, agree_control, created, ok

pytestmark = pytest.mark.shared_app


def _territory(game: Game, seq: int, role: str = "US") -> dict[str, Any]:
    dispute = created(game.post(role, "/disputes", {"seq": seq, "claim": "not so"}))
    found: dict[str, Any] = dispute["evidence"]["territory"]
    return found


def test_a_disputed_control_record_shows_the_setup_areas_before_and_after(kgp: Game) -> None:
    before = ok(kgp.get("US", "/setup-areas?map_group=Sx"))
    b2 = next(h for h in before["hexes"] if h["hex"] == "B2")
    assert b2["status"] == "US"
    body = {"map_group": "Sx", "locations": [{"hex": "B2", "side": "German"}]}
    seq = agree_control(kgp, "German", body)["seq"]
    after = ok(kgp.get("US", "/setup-areas?map_group=Sx"))
    territory = _territory(kgp, seq)
    (group, *_) = [g for g in territory["map_groups"] if g["map_group"] == "Sx"]
    changed = {c["hex"]: c for c in group["changed"]}
    assert changed["B2"]["before"]["status"] == "US"
    assert changed["B2"]["after"]["status"] == "German"
    old = {h["hex"]: h["status"] for h in before["hexes"]}
    new = {h["hex"]: h["status"] for h in after["hexes"]}
    assert {hx for hx in new if new[hx] != old[hx]} <= set(changed)
    assert all(c["before"]["status"] == old[hx] for hx, c in changed.items())
    assert group["areas_after"] == [
        {"id": a["id"], "side": a["side"], "hexes": len(a["hexes"]), "isolated": a["isolated"]}
        for a in after["areas"]
    ]
    then, now = group["maps"]
    assert then.endswith(f"at={seq - 1}")
    assert now.endswith(f"at={seq}")
    svg = kgp.client.get(now, headers=kgp.h("German"))
    assert svg.status_code == 200
    assert svg.headers["content-type"].startswith("image/svg+xml")


def test_a_disputed_scenario_end_shows_the_lvp_rows_before_and_after(kgp: Game) -> None:
    kgp.end_scenario()
    ended = ok(kgp.get("US", "/events?limit=200"))["items"]
    seq = max(e["seq"] for e in ended if e["type"] == "ScenarioEnded")
    territory = _territory(kgp, seq, "German")
    assert territory["lvp_before"] == []
    assert territory["lvp_after"] == ok(kgp.get("US", f"/lvp?at={seq}"))["rows"]
    assert len(territory["lvp_after"]) == 1


def test_a_disputed_roll_shows_no_territory(kgp_reph: Game) -> None:
    kgp = kgp_reph
    events = ok(kgp.get("US", "/events?limit=200"))["items"]
    seq = max(e["seq"] for e in events if e["type"] == "RePhAdvanced")
    dispute = created(kgp.post("US", "/disputes", {"seq": seq, "claim": "c"}))
    assert "territory" not in dispute["evidence"]
