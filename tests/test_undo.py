"""Undo by replay in the domain (DESIGN §5, ``cgledger.domain.undo``), without a database.

* Rewind: reverting everything after seq k leaves exactly the state the
  campaign had at version k; undoing that undo gives back the state before it.
  The histories play CG Dates to their end (``test_replay.histories``), and
  most of them get past the first one (``Reach``): a rewind then crosses
  scenario ends, Initiative chits and new CG Dates.
* The rules of who may undo alone, which events can be undone, and the suffix
  rule for state events, each with the reason in the refusal.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import hypothesis
import kgp_commands as kgpc
import pytest
from conftest import examples, rolls_of
from hypothesis import HealthCheck, given
from hypothesis import strategies as st
from test_replay import (
    GAME_STATE,
    Command,
    Reach,
    create,
    expand,
    histories,
    make_ctx,
    new_store,
    role_of,
    run,
)

from cgledger.domain.campaign import Campaign
from cgledger.domain.errors import DomainError, Forbidden, RuleViolation
from cgledger.domain.visibility import REFEREE


def game(campaign: Campaign) -> dict[str, Any]:
    return {name: getattr(campaign, name) for name in GAME_STATE}


def history(seed: int, commands: list[Command]) -> tuple[Campaign, Any, dict[int, dict[str, Any]]]:
    """Run ``commands``; return the campaign, its ctx factory and its game state by version."""
    rng = random.Random(seed)
    ctx = make_ctx(rng)
    campaign = create(ctx, rng, "CG I", {"US": 8, "German": 8})
    states = {campaign.version: _copy(game(campaign))}
    for cmd in commands:
        for step in expand(campaign, cmd):
            try:
                run(campaign, ctx(role_of(step)), step)
            except DomainError:
                continue
            states[campaign.version] = _copy(game(campaign))
    return campaign, ctx, states


def _copy(value: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(value)


def furthest(states: dict[int, dict[str, Any]]) -> int:
    """The furthest CG Date (its index) a history was on."""
    return max(s["date_index"] for s in states.values())


def test_undo_to_a_seq_rewinds_the_state_to_that_version() -> None:
    reach = Reach()
    undo_to_a_seq_rewinds_the_state_to_that_version(reach)
    reach.check()


@hypothesis.settings(
    max_examples=examples(200),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    commands=histories(min_size=5, max_size=35),
    pick=st.integers(0, 10_000),
)
def undo_to_a_seq_rewinds_the_state_to_that_version(
    reach: Reach, seed: int, commands: list[Command], pick: int
) -> None:
    campaign, ctx, states = history(seed, commands)
    reach.record(furthest(states))
    versions = sorted(v for v in states if v < campaign.version)
    hypothesis.assume(versions)
    k = versions[pick % len(versions)]
    before = _copy(game(campaign))
    if not any(int(s) > k and s not in campaign.reverted for s in campaign.undo_book()):
        # Nothing after k is in force any more: there is nothing to undo.
        with pytest.raises(RuleViolation, match="nothing after"):
            campaign.request_undo(ctx(REFEREE), seqs=None, to_seq=k, reason="rewind")
        return
    campaign.request_undo(ctx(REFEREE), seqs=None, to_seq=k, reason="rewind")
    # The state is now what it was at version k (DESIGN §5: replay of what is in force).
    assert game(campaign) == states[k]
    undo = campaign.version
    # And the undo can be undone: the state before it comes back.
    campaign.request_undo(ctx(REFEREE), seqs=[undo], to_seq=None, reason="undo the rewind")
    assert game(campaign) == before


def test_a_reverted_roll_keeps_its_index_and_the_next_roll_says_it_followed_an_undo() -> None:
    reach = Reach()
    a_reverted_roll_keeps_its_index_and_the_next_roll_says_it_followed_an_undo(reach)
    reach.check()


@hypothesis.settings(
    max_examples=examples(50),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32 - 1), commands=histories(min_size=5, max_size=35))
def a_reverted_roll_keeps_its_index_and_the_next_roll_says_it_followed_an_undo(
    reach: Reach, seed: int, commands: list[Command]
) -> None:
    campaign, ctx, states = history(seed, commands)
    reach.record(furthest(states))
    rolls_before = rolls_of(campaign)
    seq = campaign.roll(ctx("US"), count=2, purpose="cocked die", secret=False, client_nonce=None)
    index = len(rolls_before)
    campaign.request_undo(ctx(REFEREE), seqs=[seq], to_seq=None, reason="cocked die")
    undo = campaign.version
    assert campaign.reverted_by(seq) == undo
    again = campaign.roll(ctx("US"), count=2, purpose="re-roll", secret=False, client_nonce=None)
    assert rolls_of(campaign) == [*rolls_before, seq, again]
    assert "US" not in campaign.pending_reroll
    stored = campaign.collect_events()[-1]
    roll = stored.record["payload"]["roll"]  # type: ignore[attr-defined]
    assert roll["index"] == index + 1
    assert roll["after_undo"] == {"undo": undo, "rolls": [index]}


# ------------------------------------------------------------------ the rules, one by one


@pytest.fixture
def kgp() -> tuple[Campaign, Any]:
    rng = random.Random(7)
    ctx = make_ctx(rng)
    return create(ctx, rng, "CG I", {"US": 8, "German": 8}), ctx


def buy(campaign: Campaign, ctx: Any, side: str, rg: str = "I1", cpp: int | None = None) -> int:
    """A public purchase of one RG of the sample chart (German I1 4 CPP, HW1 3;
    US I1 5), at the chart's price unless ``cpp`` states it (8.6194)."""
    return kgpc.purchase_rg(campaign, ctx(side), side, [(rg, cpp)], secret=False)


def status_of(campaign: Campaign, seq: int) -> str:
    rid = seq
    record_type = campaign.record(seq)["type"]
    if record_type == "UndoApplied":
        rid = next(int(r) for r, v in campaign.undo_requests.items() if v["undo"] == seq)
    return str(campaign.undo_requests[str(rid)]["status"])


def test_a_side_undoes_its_own_latest_purchase_alone(kgp: tuple[Campaign, Any]) -> None:
    campaign, ctx = kgp
    seq = buy(campaign, ctx, "German")
    assert campaign.rules["cpp"]["German"][-1]["purchases"]
    last = campaign.request_undo(ctx("German"), seqs=[seq], to_seq=None, reason="misclick")
    assert status_of(campaign, last) == "applied"
    assert campaign.rules["cpp"]["German"][-1]["purchases"] == []
    assert campaign.reverted_by(seq) == last


@pytest.mark.parametrize(
    ("who", "what"),
    [
        ("US", "the opponent's purchase"),
        ("German", "a purchase with an opponent event after it"),
        ("German", "its own roll"),
    ],
)
def test_anything_else_waits_for_approval(kgp: tuple[Campaign, Any], who: str, what: str) -> None:
    campaign, ctx = kgp
    seq = buy(campaign, ctx, "German")
    if what == "a purchase with an opponent event after it":
        campaign.roll(ctx("US"), count=1, purpose="x", secret=False, client_nonce=None)
    if what == "its own roll":
        seq = campaign.roll(ctx("German"), count=1, purpose="x", secret=True, client_nonce=None)
    last = campaign.request_undo(ctx(who), seqs=[seq], to_seq=None, reason="please")
    assert status_of(campaign, last) == "pending"
    assert campaign.reverted_by(seq) is None
    with pytest.raises(Forbidden):
        campaign.approve_undo(ctx(who), last)
    approver = "US" if who == "German" else "German"
    applied = campaign.approve_undo(ctx(approver), last)
    assert campaign.reverted_by(seq) == applied


def test_the_suffix_rule_names_the_later_state_events(kgp: tuple[Campaign, Any]) -> None:
    campaign, ctx = kgp
    first = buy(campaign, ctx, "German", "I1", 4)
    second = buy(campaign, ctx, "US", "I1", 5)
    with pytest.raises(RuleViolation) as err:
        campaign.request_undo(ctx(REFEREE), seqs=[first], to_seq=None, reason="x")
    assert str(second) in err.value.detail
    assert f"to_seq {first - 1}" in err.value.detail
    campaign.request_undo(ctx(REFEREE), seqs=[first, second], to_seq=None, reason="x")
    assert campaign.rules["cpp"]["German"][-1]["purchases"] == []
    assert campaign.rules["cpp"]["US"][-1]["purchases"] == []


def test_an_undo_is_undone_only_if_nothing_was_built_on_it(kgp: tuple[Campaign, Any]) -> None:
    campaign, ctx = kgp
    seq = buy(campaign, ctx, "German", "I1", 4)
    undo = campaign.request_undo(ctx(REFEREE), seqs=[seq], to_seq=None, reason="x")
    # 8 CPP for two I1: possible only because the first I1's 4 CPP came back.
    later = kgpc.purchase_rg(campaign, ctx("German"), "German", [("I1", 4)] * 2, secret=False)
    with pytest.raises(RuleViolation) as err:
        campaign.request_undo(ctx(REFEREE), seqs=[undo], to_seq=None, reason="y")
    assert str(later) in err.value.detail
    campaign.request_undo(ctx(REFEREE), seqs=[undo, later], to_seq=None, reason="y")
    assert [p["rg"] for p in campaign.rules["cpp"]["German"][-1]["purchases"]] == ["I1"]


@pytest.mark.parametrize(
    ("kind", "why"),
    [
        ("CampaignCreated", "creation"),
        ("CommitmentsPublished", "commitments"),
        ("SecretRevealed", "revealed secret"),
        ("UndoRequested", "approve or reject"),
        ("DisputeFiled", "resolving"),
    ],
)
def test_what_cannot_be_undone_says_why(kgp: tuple[Campaign, Any], kind: str, why: str) -> None:
    campaign, ctx = kgp
    roll = campaign.roll(ctx("US"), count=2, purpose="x", secret=True, client_nonce=None)
    campaign.reveal(ctx("US"), roll)
    campaign.request_undo(ctx("US"), seqs=[roll], to_seq=None, reason="x")
    campaign.file_dispute(ctx("German"), roll, "claim")
    seq = next(s for s in range(1, campaign.version + 1) if campaign.record(s)["type"] == kind)
    version = campaign.version
    with pytest.raises(RuleViolation) as err:
        campaign.request_undo(ctx(REFEREE), seqs=[seq], to_seq=None, reason="x")
    assert why in err.value.detail
    assert campaign.version == version


def test_a_dispute_revert_goes_through_undo_but_never_takes_later_state_events(
    kgp: tuple[Campaign, Any],
) -> None:
    campaign, ctx = kgp
    first = buy(campaign, ctx, "German", "I1", 4)
    second = buy(campaign, ctx, "US", "I1", 5)
    did = campaign.file_dispute(ctx("US"), first, "I1 is not available yet")
    with pytest.raises(Forbidden):
        campaign.resolve_dispute(ctx("US"), did, "revert", "mine")
    with pytest.raises(RuleViolation, match=f"events {second} were built on event {first}"):
        campaign.resolve_dispute(ctx("German"), did, "revert", "fair")
    campaign.request_undo(ctx(REFEREE), seqs=[second], to_seq=None, reason="the U.S. I1 first")
    last = campaign.resolve_dispute(ctx("German"), did, "revert", "fair")
    undo = campaign.disputes[str(did)]["resolution"]["undo"]
    assert undo == last - 1
    assert campaign.reverted_by(first) == undo
    with pytest.raises(RuleViolation):
        campaign.resolve_dispute(ctx(REFEREE), did, "uphold", "again")


def test_a_pending_request_is_rechecked_when_approved(kgp: tuple[Campaign, Any]) -> None:
    campaign, ctx = kgp
    seq = buy(campaign, ctx, "German")
    rid = campaign.request_undo(ctx("US"), seqs=[seq], to_seq=None, reason="x")
    later = buy(campaign, ctx, "German", "HW1", 3)
    with pytest.raises(RuleViolation) as err:
        campaign.approve_undo(ctx("German"), rid)
    assert str(later) in err.value.detail
    assert campaign.undo_requests[str(rid)]["status"] == "pending"


def test_requests_answered_twice_are_refused(kgp: tuple[Campaign, Any]) -> None:
    campaign, ctx = kgp
    seq = buy(campaign, ctx, "German")
    rid = campaign.request_undo(ctx("US"), seqs=[seq], to_seq=None, reason="x")
    campaign.reject_undo(ctx("German"), rid, "no")
    assert campaign.undo_requests[str(rid)]["status"] == "rejected"
    for attempt in (
        lambda: campaign.approve_undo(ctx(REFEREE), rid),
        lambda: campaign.reject_undo(ctx(REFEREE), rid, None),
    ):
        with pytest.raises(RuleViolation):
            attempt()
    rid2 = campaign.request_undo(ctx("US"), seqs=[seq], to_seq=None, reason="x")
    campaign.reject_undo(ctx("US"), rid2, None)
    assert campaign.undo_requests[str(rid2)]["status"] == "withdrawn"


def test_the_re_roll_marker_goes_to_the_side_whose_roll_was_undone(
    kgp: tuple[Campaign, Any],
) -> None:
    campaign, ctx = kgp
    seq = campaign.roll(ctx("US"), count=2, purpose="x", secret=False, client_nonce=None)
    undo = campaign.request_undo(ctx(REFEREE), seqs=[seq], to_seq=None, reason="cocked")
    campaign.roll(ctx("German"), count=2, purpose="y", secret=False, client_nonce=None)
    german = campaign.collect_events()[-1].record["payload"]["roll"]  # type: ignore[attr-defined]
    assert german["after_undo"] is None
    campaign.roll(ctx("US"), count=2, purpose="x", secret=False, client_nonce=None)
    us = campaign.collect_events()[-1].record["payload"]["roll"]  # type: ignore[attr-defined]
    assert us["after_undo"] == {"undo": undo, "rolls": [0]}


def test_replayed_from_the_store_after_undos(kgp: tuple[Campaign, Any]) -> None:
    campaign, ctx = kgp
    store = new_store(interval=2)
    try:
        a = buy(campaign, ctx, "German", "I1", 4)
        u = campaign.request_undo(ctx("German"), seqs=[a], to_seq=None, reason="x")
        campaign.request_undo(ctx(REFEREE), seqs=[u], to_seq=None, reason="y")
        store.save(campaign)
        loaded = store.repository.get(campaign.id)
        assert game(loaded) == game(campaign)
        assert loaded.reverted == campaign.reverted
    finally:
        store.close()
