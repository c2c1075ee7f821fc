"""The LVP rebuilt from the event log alone (``cgledger.projections.lvp``):
it agrees with the server's answers, ``cgledger verify`` re-counts every
CG-Scenario End's LVP with it, and a forged total (re-hashed and re-chained
by the forger) fails verification."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Game, agree_control, created, ok
from forge import parse, reseal

from cgledger.projections.lvp import LvpProjection
from cgledger.verify import VerificationError, verify_bytes

pytestmark = pytest.mark.shared_app


def _export(game: Game, role: str = "US") -> bytes:
    r = game.client.get(f"{game.url}/export", headers=game.h(role))
    assert r.status_code == 200, r.text
    content: bytes = r.content
    return content


def _next_scenario(kgp: Game) -> None:
    """The next CG Date, on which both sides choose Attack: a Dual Attack."""
    kgp.next_date()
    kgp.replenish()
    for side in ("US", "German"):
        kgp.advance(side, "8.623")
    kgp.choose_chits("attack")


def _play(kgp: Game) -> list[str]:
    """Three scenario ends with Control changes, one of them undone."""
    body = {"map_group": "Sx", "locations": [{"hex": "B2", "side": "German"}]}
    agree_control(kgp, "German", body)
    kgp.end_scenario()
    _next_scenario(kgp)
    back = {"map_group": "Sx", "locations": [{"hex": "B2", "side": "US"},
                                            {"hex": "C3", "side": "US"}]}  # fmt: skip
    agreed = agree_control(kgp, "US", back)
    # The German asks to undo its approval, the U.S. agrees (an agreement in
    # force is not undone alone, §13) and withdraws the proposal that waits again.
    asked = {"seqs": [agreed["seq"]], "reason": "misread"}
    undo = created(kgp.post("German", "/undo-requests", asked))
    assert undo["status"] == "pending"
    assert ok(kgp.post("US", f"/undo-requests/{undo['id']}/approve"))["status"] == "applied"
    ok(kgp.post("US", f"/proposals/{agreed['proposal']}/withdraw"))
    agree_control(kgp, "US", {**back, "locations": back["locations"][:1]})
    kgp.end_scenario()
    _next_scenario(kgp)
    kgp.end_scenario({"US": 1, "German": 2}, control=[
        {"map_group": "Sx", "locations": [{"hex": "C1", "side": "German"}]}])  # fmt: skip
    rows = ok(kgp.get("US", "/lvp"))["rows"]
    return [row["cg_date"] for row in rows]


def test_the_projection_agrees_with_the_servers_rows(kgp: Game) -> None:
    _play(kgp)
    _, events = parse(_export(kgp, "German"))
    projection = LvpProjection().apply_all(events)
    assert projection.mismatches == []
    served = [r for r in ok(kgp.get("US", "/lvp"))["rows"] if r["scenario"] != "idle"]
    rebuilt = [projection.rows[s] for s in sorted(projection.rows)]
    keys = ("cg_date", "start_lvp", "current_lvp", "cg_lvp")
    assert [{k: r[k] for k in keys} for r in rebuilt] == [{k: r[k] for k in keys} for r in served]
    assert len(served) == 3


def test_verify_recounts_every_scenario_ends_lvp(kgp: Game) -> None:
    _play(kgp)
    report = verify_bytes(_export(kgp))
    assert report.lvp_rows_checked == 3


@pytest.mark.parametrize("what", ["current_lvp", "cg_lvp", "start_lvp"])
def test_a_forged_lvp_total_fails_verification(kgp: Game, what: str) -> None:
    _play(kgp)
    header, events = parse(_export(kgp))
    ended = [e for e in events if e["type"] == "ScenarioEnded"]
    forged: dict[str, Any] = ended[1]["payload"]["lvp"][what]
    forged["German"] += 1
    with pytest.raises(VerificationError, match=rf"{what}.*8\.6032") as caught:
        verify_bytes(reseal(header, events))
    assert caught.value.seq == ended[1]["seq"]


def test_an_undone_control_record_is_not_counted() -> None:
    records = [
        {"seq": 1, "type": "CampaignCreated", "payload": {"sides": ["A", "B"], "definition": {
            "map_groups": [{"id": "M", "hexes": [{"hex": "A1", "lvp": 3}, {"hex": "A2", "lvp": 5}],
                            "initial_control": {"A1": "A"}}]}}},
        {"seq": 2, "type": "ControlRecorded", "payload": {"map_group": "M", "locations": [
            {"hex": "A2", "level": 0, "side": "B"}]}},
        {"seq": 3, "type": "ControlRecorded", "payload": {"map_group": "M", "locations": [
            {"hex": "A1", "level": 0, "side": "B"}]}},
        {"seq": 4, "type": "UndoApplied", "payload": {"reverts": [3], "restores": []}},
    ]  # fmt: skip
    projection = LvpProjection().apply_all(records)
    assert projection.totals == {"A": 3, "B": 5}
    projection.apply({"seq": 5, "type": "UndoApplied", "payload": {"reverts": [], "restores": [3]}})
    assert projection.totals == {"A": 0, "B": 8}


def test_a_scenario_end_restored_by_an_undo_of_its_undo_counts_again() -> None:
    """An undo reverts a CG-Scenario End, an undo of that undo restores it: the
    next scenario end starts from its totals again (a review found verify
    failing an honest export here)."""
    created = {"seq": 1, "type": "CampaignCreated", "payload": {"sides": ["A", "B"], "definition": {
        "map_groups": [{"id": "M", "hexes": [{"hex": "A1", "lvp": 3}, {"hex": "A2", "lvp": 5}],
                        "initial_control": {"A1": "A"}}]}}}  # fmt: skip
    take = {"map_group": "M", "locations": [{"hex": "A2", "level": 0, "side": "B"}]}
    first = {"start_lvp": {"A": 3, "B": 0}, "current_lvp": {"A": 3, "B": 5},
             "cg_lvp": {"A": 3, "B": 5}}  # fmt: skip
    second = {"start_lvp": {"A": 3, "B": 5}, "current_lvp": {"A": 3, "B": 5},
              "cg_lvp": {"A": 6, "B": 10}}  # fmt: skip
    records = [
        created,
        {"seq": 2, "type": "ControlRecorded", "payload": take},
        {"seq": 3, "type": "ScenarioEnded", "payload": {"cg_date": "d1", "lvp": first}},
        {"seq": 4, "type": "UndoApplied", "payload": {"reverts": [3], "restores": []}},
        {"seq": 5, "type": "UndoApplied", "payload": {"reverts": [4], "restores": [3]}},
        {"seq": 6, "type": "ScenarioEnded", "payload": {"cg_date": "d2", "lvp": second}},
    ]
    projection = LvpProjection().apply_all(records)
    assert projection.mismatches == []
    assert sorted(projection.rows) == [3, 6]
    assert projection.checked == 2
