"""A database written before the undo bookkeeping existed (aggregate schema 1)
still loads: a snapshot of an older schema is ignored, and the campaign is
rebuilt from its events (then snapshotted again). Both backends."""

from __future__ import annotations

import dataclasses

import kgp_commands as kgpc
import pytest

from cgledger.domain.campaign import SCHEMA, Campaign
from cgledger.service import Ledger

pytestmark = pytest.mark.store

#: Attributes the aggregate did not have before schema 2.
NEW_IN_2 = (
    "schema",
    "head_at",
    "types",
    "revertible",
    "reverted",
    "state_log",
    "genesis",
    "last_event",
    "pending_reroll",
    "undo_requests",
    "disputes",
)


def _campaign(ledger: Ledger) -> str:
    created = ledger.create_campaign(
        ruleset="kgp",
        campaign="CG I",
        title="old",
        start_date=None,
        initial_cpp={"German": 6, "US": 0},
        idempotency_key=None,
        request_fingerprint="old",
    )
    return created.campaign.cid


def _buy(ledger: Ledger, cid: str) -> int:
    done = ledger.execute(
        cid,
        "German",
        lambda c, ctx: kgpc.purchase_rg(c, ctx, "German", [("HW1", 3)], secret=True),
        operation="rg",
        body={},
    )
    return done.seq


def test_a_snapshot_of_the_old_schema_is_replaced_by_a_replay(ledger: Ledger) -> None:
    cid = _campaign(ledger)
    first = _buy(ledger, cid)
    live = ledger.load(cid)
    # What the previous release stored: the same state without the new attributes.
    old = Campaign.Snapshot.take(live)  # type: ignore[attr-defined]
    state = {k: v for k, v in old.state.items() if k not in NEW_IN_2}
    assert ledger.store.snapshots is not None
    ledger.store.snapshots.put([dataclasses.replace(old, state=state)])

    # Loading it at its head, and with events after it, both give the full state.
    loaded = ledger.load(cid)
    assert loaded.schema == SCHEMA
    assert loaded.state_log == live.state_log
    second = _buy(ledger, cid)  # an event on top of the (now replaced) old snapshot
    done = ledger.execute(
        cid,
        "German",
        lambda c, ctx: c.request_undo(ctx, seqs=[second], to_seq=None, reason="x"),
        operation="undo",
        body={},
    )
    campaign = ledger.load(cid)
    assert campaign.reverted_by(second) == done.seq
    assert [p["rg"] for p in campaign.rules["cpp"]["German"][-1]["purchases"]] == ["HW1"]
    assert campaign.rules["cpp"]["German"][-1]["purchase_seqs"] == [first]
