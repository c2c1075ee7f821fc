"""8.618 German Ammunition Shortage (issue 13 item 3): "Beginning on Dec 20 AM,
and on each CG Date thereafter (if necessary), the German makes a DR. On a Final
DR of ≥ 12 the German OB suffers from Ammunition Shortage (A19.131) for the
duration of the CG. A +1 DRM applies per CG scenario completed after 20 AM."
That DRM is counted by the ledger (tests/test_counted_drms.py). The result
lasts: it is campaign state, shown with the campaign and the roster, read by
``?at=``, undone by replay, and 8.6146's "+1 drm if Ammunition Shortage [8.618]
is already in effect" is counted from it."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from dice_steer import table_nonce
from fastapi.testclient import TestClient

from cgledger.domain.rulesets import REGISTRY
from cgledger.verify import verify_bytes

pytestmark = pytest.mark.shared_app

KGP = {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": 2}}
SHORTAGE = REGISTRY["kgp"].tables["kgp:8.618"]


def _certain(game: Game) -> dict[str, str]:
    """The body of a DR whose Final is 12: the DRM is the ledger's count of
    scenarios (0 on 20 AM), so a natural 12, by a chosen client nonce
    (``dice_steer``)."""
    return {"client_nonce": table_nonce(game, SHORTAGE.id, "German", 12)}


@pytest.fixture
def kgp(client: TestClient) -> Game:
    game = Game(client, KGP)
    game.to_date("20 AM", on_it=True)
    return game


def test_the_cpp_replenishment_comes_first(client: TestClient) -> None:
    game = Game(client, KGP)
    game.to_date("20 AM")
    before = game.version()
    problem = assert_problem(_shortage(game, scenarios_after_20_am=0), 409)
    assert problem["detail"].startswith(
        "8.618: the German Ammunition Shortage DR belongs to RePh step 8.618; 8.616: CPP "
        "Replenishment requires its action of German on 20 AM before the step is passed"
    )
    assert problem["rule"] == "8.618"
    assert game.version() == before


def _shortage(game: Game, role: str = "German", **body: Any) -> Any:
    return game.post(role, "/ammunition-shortage", body)


def test_a_final_dr_of_12_starts_the_shortage_for_the_rest_of_the_cg(kgp: Game) -> None:
    out = created(_shortage(kgp, **_certain(kgp)))
    event = out["event"]
    assert event["type"] == "AmmunitionShortageRolled"
    assert event["payload"]["rule"] == "kgp:8.618"
    assert event["payload"]["shortage"] is True
    assert event["payload"]["final"] == event["payload"]["original"] == 12
    drm = event["payload"]["drm"]
    # No CG scenario completed after 20 AM yet: the ledger's count is 0.
    assert drm == [
        {
            "id": "scenarios-after-20-am",
            "text": "Per CG scenario completed after 20 AM",
            "count": 0,
            "value": 0,
            "by": "ledger",
        }
    ]
    seq = out["seq"]
    for role in ("US", "German", "referee"):
        conditions = ok(kgp.get(role))["conditions"]
        assert conditions["ammunition_shortage"]["since"] == "20 AM"
        assert conditions["ammunition_shortage"]["seq"] == seq
        assert conditions["ammunition_shortage"]["rule"] == "8.618"
        assert ok(kgp.get(role, "/roster?side=German"))["conditions"] == conditions
    # ?at= the event before: no shortage yet.
    earlier = ok(kgp.get("US", f"/state?at={seq - 1}"))["campaign"]["conditions"]
    assert "ammunition_shortage" not in earlier
    # "for the duration of the CG": no further DR, on this date or any later one.
    problem = assert_problem(_shortage(kgp), 409)
    assert problem["detail"].startswith(
        f"8.618: the German OB suffers Ammunition Shortage since 20 AM (event {seq})"
    )
    kgp.to_date("20 PM", on_it=True)
    assert_problem(_shortage(kgp), 409)
    assert "ammunition_shortage" in ok(kgp.get("US"))["conditions"]


def test_no_shortage_means_another_dr_on_the_next_date(kgp: Game) -> None:
    """ "(if necessary)": while no shortage began, the DR is made again on each
    later CG Date, once per date. A Final of 11 (one short of the band) is
    chosen by the nonce; a 12 is the test above."""
    out = created(_shortage(kgp, client_nonce=table_nonce(kgp, SHORTAGE.id, "German", 11)))
    payload = out["event"]["payload"]
    assert (payload["original"], payload["final"], payload["shortage"]) == (11, 11, False)
    assert "ammunition_shortage" not in ok(kgp.get("German"))["conditions"]
    problem = assert_problem(_shortage(kgp), 409)
    assert problem["detail"] == f"8.618: the DR for 20 AM was made already (event {out['seq']})"
    kgp.to_date("20 PM", on_it=True)
    created(_shortage(kgp))


def test_it_is_the_germans_dr_and_its_count_is_the_ledgers(kgp: Game) -> None:
    assert_problem(_shortage(kgp, "US"), 403)
    assert_problem(_shortage(kgp, "referee", side="US"), 403)
    before = kgp.version()
    # The ledger counts the scenarios (issue 26 item 3): a stated count is
    # refused, the ledger's too.
    for stated in (0, 1):
        problem = assert_problem(_shortage(kgp, scenarios_after_20_am=stated), 422)
        assert problem["detail"] == (
            "8.618: scenarios-after-20-am is computed by the ledger; do not state it "
            "(its count on 20 AM is 0)"
        )
        assert problem["rule"] == "8.618"
    assert_problem(_shortage(kgp, scenarios_after_20_am=-1), 422)
    assert kgp.version() == before
    # Left out, the ledger counts it.
    drm = created(_shortage(kgp))["event"]["payload"]["drm"]
    assert [(d["id"], d["count"]) for d in drm] == [("scenarios-after-20-am", 0)]


def test_8_6146_counts_the_shortage(client: TestClient) -> None:
    """8.6146: "+1 drm if Ammunition Shortage [8.618] is already in effect"
    (8.614 comes before 8.616 and 8.618: rolled on a date before its CPP
    Replenishment)."""
    kgp = Game(client, KGP)
    kgp.to_date("20 AM")
    roll = "/tables/kgp:8.6146/rolls"
    named = {"drm": [{"id": "ammunition-shortage"}]}
    problem = assert_problem(kgp.post("German", roll, named), 422)
    assert problem["detail"] == (
        "8.6146: ammunition-shortage is computed by the ledger; do not state it "
        "(it does not apply on 20 AM)"
    )
    before = created(kgp.post("German", roll, {}))
    assert before["drm"] == []
    kgp.replenish()
    created(_shortage(kgp, **_certain(kgp)))
    kgp.to_date("20 PM")
    after = created(kgp.post("German", roll, {}))
    assert [d["id"] for d in after["drm"]] == ["ammunition-shortage"]
    assert after["final"] == after["original"] + 1


def test_an_undo_ends_the_shortage_by_replay(kgp: Game) -> None:
    first = created(_shortage(kgp, **_certain(kgp)))
    assert first["event"]["payload"]["shortage"] is True
    seq, seq_roll = first["seq"], first["roll"]["index"]
    undo = created(kgp.post("referee", "/undo-requests", {"seqs": [seq], "reason": "wrong count"}))
    assert undo["status"] == "applied"
    assert "ammunition_shortage" not in ok(kgp.get("US"))["conditions"]
    # The DR may be made again on this date; the undone roll keeps its index and
    # the new one says that it follows the undo (DESIGN §5).
    again = created(_shortage(kgp))
    assert again["roll"]["index"] == seq_roll + 1
    assert again["roll"]["after_undo"] is not None


def test_the_export_verifies_the_recorded_result(kgp: Game) -> None:
    created(_shortage(kgp, **_certain(kgp)))
    body = kgp.client.get(f"{kgp.url}/export", headers=kgp.h("US")).content
    report = verify_bytes(body)
    assert report.rule_results_checked >= 1
    rules = REGISTRY["kgp"].rules
    values = {"rule": "kgp:8.618", "shortage": False, "final": 13, "outcome": {"band": 1}}
    assert rules.verify_result({}, values) == (
        "8.618: a Final DR of 13 starts the Ammunition Shortage, but shortage False is recorded"
    )
