"""Issue 26 item 5: KGP SSR CG4 ELR/MASSACRE, word for word:

    "Each side's printed ELR given in the Initial Scenario (8.51-.53) of each
    CG is also treated as that side's printed ELR for all subsequent scenarios
    of that CG [EXC: for non-SS German ELR see SSR KGP11; if a Massacre
    (A20.4) occurs during any CG scenario/RePh, all effects listed in A20.3-4
    are applicable for the remainder of that CG; the Scenario Defender's ELR
    at night is one < it would be in a daytime scenario]"

with SSR CG5 ("a side selecting the Idle chit is the Scenario Defender" in a
night Assault) and SSR KGP11 (non-SS MMC "have a "printed" ELR of "3"").
8.51-.53 are not in the seeds: the printed ELR is the definition's ``elr``.
Pure domain (``domain_game``); the route is ``test_api_massacre``."""

from __future__ import annotations

from typing import Any

import pytest
from domain_game import DomainGame
from pydantic import ValidationError

from cgledger.domain.errors import Forbidden, InvalidInput, NotFound, RuleViolation
from cgledger.domain.rulesets.kgp import elr as cg4
from cgledger.domain.rulesets.kgp.definition import MODEL, SAMPLE
from cgledger.domain.rulesets.kgp.ruleset import CAMPAIGNS

US, GERMAN = "US", "German"
PRINTED = {US: 4, GERMAN: 5}
#: 8.6232's matrix (U.S. chit, German chit) and CG5's Scenario Defender of a
#: night Assault: "a side selecting the Idle chit"; a Dual Attack (both Attack)
#: names none, an Idle date has no scenario.
CELLS = [
    (("attack", "idle"), "us-assault", GERMAN),
    (("idle", "attack"), "german-assault", US),
    (("attack", "attack"), "dual-attack", None),
    (("idle", "idle"), "idle", None),
]


def _game(elr: dict[str, int] | None = PRINTED, cg: str = "CG I") -> DomainGame:
    definition = dict(SAMPLE) if elr is None else {**SAMPLE, "elr": elr}
    return DomainGame("kgp", cg, definition=definition, initial_cpp={"German": 2})


def _conditions(game: DomainGame) -> dict[str, Any]:
    found: dict[str, Any] = game.c.ruleset.rules.conditions(game.c.engine)
    return found


def _to(game: DomainGame, cg_date: str) -> None:
    """Play CG Dates (each a Dual Attack played to its end) until ``cg_date``."""
    while game.cg_date != cg_date:
        game.next_date()


def _chits(game: DomainGame, us: str, german: str) -> str | None:
    for side in game.c.sides:
        game.advance(side, "8.623")
    game.c.choose_initiative(game.ctx(US), US, us)
    game.c.choose_initiative(game.ctx(GERMAN), GERMAN, german)
    return game.c.scenario_of(game.cg_date)


def _night(cg: str = "CG I") -> str:
    return next(d for d in CAMPAIGNS[cg].calendar if cg4.is_night(d))


# ---------------------------------------------------------------- the ELR


def test_the_printed_elr_of_the_cg_is_each_sides_elr_on_every_day_date() -> None:
    """CG4: the Initial Scenario's printed ELR holds "for all subsequent
    scenarios of that CG"; by day no one's changes, whatever the scenario."""
    game = _game()
    seen = []
    while not cg4.is_night(game.cg_date):
        shown = _conditions(game)["elr"]
        for side in (US, GERMAN):
            entry = shown[side]
            assert (entry["value"], entry["printed"]) == (PRINTED[side], PRINTED[side])
            assert (entry["cg_date"], entry["rule"], entry["night"]) == (game.cg_date, "CG4", False)
            assert "scenario_defender" not in entry
            assert "change" not in entry
        assert shown[GERMAN]["non_ss"]["value"] == cg4.NON_SS_ELR == 3  # KGP11
        assert "non_ss" not in shown[US]
        seen.append(game.cg_date)
        game.next_date()
    assert seen == list(CAMPAIGNS["CG I"].calendar[: len(seen)])
    assert len(seen) >= 2


@pytest.mark.parametrize(("chits", "scenario", "defender"), CELLS, ids=[c[1] for c in CELLS])
def test_the_scenario_defender_at_night_has_one_less(
    chits: tuple[str, str], scenario: str, defender: str | None
) -> None:
    """CG4: "the Scenario Defender's ELR at night is one < it would be in a
    daytime scenario"; CG5: in a night Assault "a side selecting the Idle chit
    is the Scenario Defender". Each cell of 8.6232 on a Night CG Date."""
    game = _game()
    _to(game, _night())
    before = _conditions(game)["elr"]  # the Initiative not determined yet: no one known
    for side in (US, GERMAN):
        assert (before[side]["value"], before[side]["scenario_defender"]) == (PRINTED[side], None)
        assert before[side]["note"].startswith("8.6232:")
    assert _chits(game, *chits) == scenario
    shown = _conditions(game)["elr"]
    for side in (US, GERMAN):
        entry = shown[side]
        defends = side == defender
        assert entry["night"] is True
        assert entry["value"] == PRINTED[side] - (1 if defends else 0)
        assert entry.get("change") == (-1 if defends else None)
        assert entry["scenario_defender"] == (None if defender is None else defends)
    non_ss = shown[GERMAN]["non_ss"]
    assert non_ss["value"] == 3 - (1 if defender == GERMAN else 0)
    if defender is None:
        # The rules name no Scenario Defender: said so, both unchanged.
        word = "8.6232 note 2" if scenario == "idle" else "CG5"
        assert all(shown[s]["note"].startswith(word) for s in (US, GERMAN))
    # The next CG Date is a day again: the printed ELR for both.
    game.next_date()
    assert not cg4.is_night(game.cg_date)
    assert {s: e["value"] for s, e in _conditions(game)["elr"].items()} == PRINTED


@pytest.mark.parametrize(("elr", "shown"), [(None, False), ({}, False), ({US: 2}, True)])
def test_the_elr_is_the_definitions_or_the_players(elr: Any, shown: bool) -> None:
    """8.51-.53 are not in the seeds: without a definition's ELR nothing is
    shown; a side it leaves out has no value (the players'), the German's
    non-SS ELR (KGP11) still is."""
    game = _game(elr)
    found = _conditions(game).get("elr")
    assert (found is not None) == shown
    if found is not None:
        assert (found[US]["value"], found[GERMAN]["value"]) == (2, None)
        assert found[GERMAN]["non_ss"]["value"] == 3


@pytest.mark.parametrize(
    "elr", [{US: 6}, {US: -1}, {"British": 3}, {US: "4"}], ids=["6", "-1", "side", "str"]
)
def test_a_definition_elr_is_an_elr_of_a_side(elr: dict[str, Any]) -> None:
    with pytest.raises(ValidationError) as refused:
        MODEL.model_validate({**SAMPLE, "elr": elr})
    assert refused.value.errors()[0]["loc"][0] == "elr"
    assert MODEL.model_validate({**SAMPLE, "elr": PRINTED}).model_dump()["elr"] == PRINTED


# ---------------------------------------------------------------- a Massacre


def _massacre(game: DomainGame, role: str, side: str, note: str | None = None) -> int:
    return game.c.record_massacre(game.ctx(role), side, note)


def _shown(game: DomainGame) -> dict[str, Any]:
    found: dict[str, Any] = _conditions(game).get("massacre", {})
    return found


def test_a_sides_massacre_is_a_proposal_the_opponent_approves() -> None:
    """DESIGN §13: a side's record changes nothing until the opponent
    approves it; then A20.3-4 apply "for the remainder of that CG"."""
    game = _game()
    game.next_date()
    proposal = _massacre(game, US, GERMAN, "prisoners shot in the church")
    assert game.c.massacre_proposals[str(proposal)]["status"] == "pending"
    assert game.c.proposal_seqs("pending", "massacre") == [proposal]
    assert _shown(game) == {}
    with pytest.raises(Forbidden):
        game.c.approve_proposal(game.ctx(US), proposal)  # not its own
    recorded = game.c.approve_proposal(game.ctx(GERMAN), proposal)
    answer = game.c.massacre_proposals[str(proposal)]
    assert (answer["status"], answer["answer"]["seq"]) == ("applied", recorded)
    shown = _shown(game)[GERMAN]
    assert (shown["seq"], shown["proposal"], shown["by"], shown["rule"]) == (
        recorded,
        proposal,
        US,
        "CG4",
    )
    assert shown["value"].startswith("A20.3-4 apply: a Massacre (A20.4) by the German")
    assert shown["value"].endswith(cg4.MASSACRE_EFFECT)
    recorded_on = game.cg_date
    # For the remainder of the CG: every later CG Date shows it.
    while game.cg_date != CAMPAIGNS["CG I"].calendar[-1]:
        game.next_date(play=False)
        assert _shown(game)[GERMAN]["cg_date"] == recorded_on
    assert US not in _shown(game)


def test_a_rejected_or_withdrawn_massacre_never_applies() -> None:
    game = _game()
    first = _massacre(game, GERMAN, US)
    game.c.answer_proposal(game.ctx(US), first, "no such thing", withdraw=False)
    second = _massacre(game, GERMAN, US)
    game.c.answer_proposal(game.ctx(GERMAN), second, None, withdraw=True)
    assert [game.c.massacre_proposals[str(s)]["status"] for s in (first, second)] == [
        "rejected",
        "withdrawn",
    ]
    for seq in (first, second):
        with pytest.raises(RuleViolation):
            game.c.approve_proposal(game.ctx("referee"), seq)
    assert _shown(game) == {}


def test_the_referees_massacre_applies_at_once_and_one_per_side_is_enough() -> None:
    game = _game()
    seq = _massacre(game, "referee", US)
    assert _shown(game)[US]["seq"] == seq
    assert game.c.proposal_seqs(kind="massacre") == []  # not a proposal
    before = game.c.version
    with pytest.raises(RuleViolation) as refused:
        _massacre(game, GERMAN, US)
    assert refused.value.detail.startswith(
        f"CG4: a Massacre by the US is recorded already (event {seq}, 19 AM)"
    )
    assert game.c.version == before
    # A proposal made before the other was recorded is refused on approval.
    pending = _massacre(game, US, GERMAN)
    _massacre(game, "referee", GERMAN)
    with pytest.raises(RuleViolation) as refused:
        game.c.approve_proposal(game.ctx(GERMAN), pending)
    assert refused.value.detail.endswith(f"; reject Massacre proposal {pending}")
    assert set(_shown(game)) == {US, GERMAN}


def test_a_massacre_names_a_side_and_kgp_keeps_it() -> None:
    game = _game()
    with pytest.raises(InvalidInput) as refused:
        _massacre(game, US, "British")
    assert (refused.value.field, refused.value.rule) == ("by", "CG4")
    with pytest.raises(InvalidInput):
        _massacre(game, US, GERMAN, "   ")
    abtf = DomainGame("abtf", "CG I", start_date="18 AM")
    with pytest.raises(NotFound):
        abtf.c.record_massacre(abtf.ctx("British"), "German", None)


# ---------------------------------------------------------------- undo


def test_undo_of_a_massacre_follows_the_agreement() -> None:
    """domain/undo.py: a side undoes its own latest proposal alone; an approved
    proposal (``MassacreRecorded`` naming it) is an agreement in force, which
    the approver does not take back alone (as an approved Control)."""
    game = _game()
    mine = _massacre(game, US, GERMAN)
    undo = game.c.request_undo(game.ctx(US), seqs=[mine], to_seq=None, reason="wrong side")
    assert game.c.record(undo)["type"] == "UndoApplied"
    assert game.c.proposal_seqs("pending", "massacre") == []
    proposal = _massacre(game, US, GERMAN)
    recorded = game.c.approve_proposal(game.ctx(GERMAN), proposal)
    asked = game.c.request_undo(game.ctx(GERMAN), seqs=[recorded], to_seq=None, reason="misread")
    assert game.c.record(asked)["type"] == "UndoRequested"  # pending: not alone
    assert GERMAN in _shown(game)
    game.c.approve_proposal(game.ctx(US), asked)
    assert _shown(game) == {}
    # The proposal waits again, as before its approval; the referee's undo of
    # his own record applies at once.
    assert game.c.massacre_proposals[str(proposal)]["status"] == "pending"
    game.c.answer_proposal(game.ctx(US), proposal, None, withdraw=True)
    ruling = _massacre(game, "referee", US)
    game.c.request_undo(game.ctx("referee"), seqs=[ruling], to_seq=None, reason="no")
    assert _shown(game) == {}
