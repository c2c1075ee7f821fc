"""Issue 4's walk-through, over REST as a new user would do it, on SQLite and
PostgreSQL (the closing note records the same steps):

1. a purchase made by mistake is undone at once;
2. a roll is made, an undo of it is requested, and the opponent approves;
3. the re-roll takes the next index, and the audit shows both rolls;
4. after the Initial Scenario's end, a dispute on a table roll shows the
   recomputation and is resolved;
5. ``state?at=`` reproduces an earlier Roster exactly;
6. an export with saved checkpoints verifies, and fails once the log is rewritten.
"""

from __future__ import annotations

import json

import pytest
from conftest import Game, created, ok
from forge import parse, reseal

from cgledger.signing import check_checkpoint
from cgledger.verify import VerificationError, verify_bytes

pytestmark = [pytest.mark.store, pytest.mark.shared_app]


def test_the_issue_4_walk_through(kgp: Game) -> None:
    saved = []  # checkpoints a player keeps, from the responses
    key = ok(kgp.client.get("/v1/server-key"))["public_key"]

    # 1. The German buys F1 (2 CPP on the sample chart, 8.6194) by mistake (8.619,
    #    public) and undoes it at once.
    roster_before = ok(kgp.get("US", "/roster?side=German"))
    version_before = roster_before["version"]
    bought = created(
        kgp.post(
            "German", "/rg-purchases", {"rg": "F1", "cpp": 2, "map_group": "Sx", "secret": False}
        )
    )
    saved.append(bought["checkpoint"])
    assert ok(kgp.get("US", "/roster?side=German"))["lines"][0]["left"] == 0
    undo = created(
        kgp.post("German", "/undo-requests", {"seqs": [bought["seq"]], "reason": "misclick"})
    )
    assert undo["status"] == "applied"
    assert undo["undo"]["reverts"] == [bought["seq"]]
    assert undo["undo"]["at_once"] is True
    roster = ok(kgp.get("US", "/roster?side=German"))
    assert roster["lines"] == roster_before["lines"]  # 2 CPP left again, no RG
    events = ok(kgp.get("US", f"/events?after={bought['seq'] - 1}&limit=1"))["items"]
    assert events[0]["type"] == "RGPurchased"
    assert events[0]["reverted_by"] == undo["undo"]["seq"]  # still in the log, marked

    # 2. The US rolls; it asks to undo the roll; the German approves.
    roll = created(kgp.post("US", "/rolls", {"dice": 2, "purpose": "Sniper check"}))
    asked = created(kgp.post("US", "/undo-requests", {"seqs": [roll["seq"]], "reason": "cocked"}))
    assert asked["status"] == "pending"  # a roll is never undone alone
    assert kgp.post("US", f"/undo-requests/{asked['id']}/approve").status_code == 403
    approved = ok(kgp.post("German", f"/undo-requests/{asked['id']}/approve"))
    assert approved["status"] == "applied"
    assert approved["undo"]["rolls"] == [roll["index"]]
    saved.append(approved["checkpoint"])

    # 3. The re-roll takes the next index; the audit shows both rolls.
    again = created(kgp.post("US", "/rolls", {"dice": 2, "purpose": "Sniper check"}))
    assert again["index"] == roll["index"] + 1
    assert again["after_undo"] == {"undo": approved["undo"]["seq"], "rolls": [roll["index"]]}
    first = ok(kgp.get("German", f"/rolls/{roll['index']}"))
    assert first["dice"] == roll["dice"]
    assert first["reverted_by"] == approved["undo"]["seq"]
    audit = ok(kgp.get("German", "/events?type=DiceRolled"))["items"]
    assert [(e["payload"]["roll"]["index"], e["reverted_by"]) for e in audit] == [
        (roll["index"], approved["undo"]["seq"]),
        (again["index"], None),
    ]

    # 4. The Initial Scenario ends (8.606 Escape comes in the RePh after it); the
    #    German rolls 8.606 Escape; the US disputes the DRM; the referee decides.
    kgp.end_scenario()
    escape = created(
        kgp.post(
            "German",
            "/tables/kgp:8.606-infantry/rolls",
            {"drm": [{"id": "isolated"}, {"id": "hs-equivalent", "count": 2}]},
        )
    )
    dispute = created(
        kgp.post("US", "/disputes", {"seq": escape["seq"], "claim": "the HS were not isolated"})
    )
    evidence = dispute["evidence"]
    assert evidence["proof"]["server_check"]["ok"] is True
    assert evidence["proof"]["verifiable_by_you"] is True
    table = evidence["table"]
    assert table["matches"] is True
    assert table["mismatches"] == []
    assert table["recomputed"]["final"] == escape["final"] == table["recorded"]["final"]
    assert table["recomputed"]["outcome"] == escape["outcome"]
    assert evidence["state_before"]["at"] == escape["seq"] - 1
    assert evidence["state_after"]["at"] == escape["seq"]
    own = kgp.post("US", f"/disputes/{dispute['id']}/resolve", {"decision": "uphold", "note": "x"})
    assert own.status_code == 403  # the side that filed it does not decide it
    resolved = ok(
        kgp.post(
            "referee",
            f"/disputes/{dispute['id']}/resolve",
            {"decision": "uphold", "note": "isolated at the end of the scenario"},
        )
    )
    assert resolved["status"] == "upheld"
    saved.append(resolved["checkpoint"])
    kinds = [
        e["type"] for e in ok(kgp.get("US", "/events?type=DisputeFiled,DisputeResolved"))["items"]
    ]
    assert kinds == ["DisputeFiled", "DisputeResolved"]

    # 5. state?at= reproduces the Roster answered before step 1, byte for byte.
    then = ok(kgp.get("US", f"/state?at={version_before}"))
    assert then["rosters"]["German"] == roster_before
    assert ok(kgp.get("US", f"/roster?side=German&at={version_before}")) == roster_before
    at_purchase = ok(kgp.get("US", f"/roster?side=German&at={bought['seq']}"))
    assert at_purchase["lines"][0]["rg_purchased"] == [{"rg": "F1", "cpp": 2, "seq": bought["seq"]}]

    # 6. The export verifies with the saved checkpoints, and fails once rewritten.
    for cp in saved:
        check_checkpoint(cp, server_key=key)
    export = kgp.get("US", "/export").content
    report = verify_bytes(export, checkpoints=saved, server_key=key)
    assert report.checkpoints_checked == len(saved)
    header, lines = parse(export)
    # The server (or anyone holding the database) rewrites the mistaken purchase
    # to 1 CPP and re-chains the log: the chain alone cannot tell...
    purchase = lines[bought["seq"] - 1]
    assert purchase["payload"]["rgs"] == [
        {
            "rg": "F1",
            "name": "Sample Fortifications",
            "cpp": 2,
            "map_group": "Sx",
            "modifiers": [],
            "fpp": 5,
        }
    ]
    purchase["payload"]["rgs"][0]["cpp"] = 1
    forged = reseal(header, lines)
    verify_bytes(forged)
    # ... but the checkpoint the German's client saved at that purchase can.
    with pytest.raises(VerificationError) as err:
        verify_bytes(forged, checkpoints=saved, server_key=key)
    assert err.value.seq == bought["seq"]
    assert "rewritten" in str(err.value)


def test_every_appending_response_carries_the_checkpoint_header(kgp: Game) -> None:
    r = kgp.post("US", "/rolls", {"dice": 1, "purpose": "x"})
    body = created(r)
    assert json.loads(r.headers["Cgledger-Checkpoint"]) == body["checkpoint"]
    item = ok(kgp.get("US", f"/events?after={body['seq'] - 1}&limit=1"))["items"][0]
    assert item["meta"] == {"request_id": r.headers["X-Request-ID"], "idempotency_key": None}
