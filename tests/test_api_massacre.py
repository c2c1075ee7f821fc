"""KGP SSR CG4 over REST: ``POST /massacres`` (a side's is a proposal, DESIGN
§13, answered through ``/proposals``; the referee's applies at once), the
Massacre and the ELR under the campaign's ``conditions``, and their ``?at=``
reads (``GET /state``). The rules themselves are played in ``test_cg4`` (pure domain)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from fastapi.testclient import TestClient

from cgledger.domain.rulesets import REGISTRY
from cgledger.verify import verify_bytes

pytestmark = pytest.mark.shared_app

US, GERMAN = "US", "German"
PRINTED = {US: 4, GERMAN: 5}


def _kgp(client: TestClient) -> Game:
    definition = copy.deepcopy(dict(REGISTRY["kgp"].sample_definition))
    definition["elr"] = dict(PRINTED)
    body = {"ruleset": "kgp", "campaign": "CG I", "title": "cg4", "definition": definition}
    return Game(client, {**body, "initial_cpp": {"German": 2}})


def _conditions(game: Game, role: str, at: int | None = None) -> dict[str, Any]:
    """The campaign's ``conditions``, now or as of event ``at`` (``GET /state``)."""
    if at is None:
        found: dict[str, Any] = ok(game.get(role))["conditions"]
        return found
    then: dict[str, Any] = ok(game.get(role, f"/state?at={at}"))["campaign"]["conditions"]
    return then


def test_a_massacre_proposed_approved_and_read_as_of_any_event(client: TestClient) -> None:
    game = _kgp(client)
    note = "prisoners shot at the church"
    out = created(game.post(US, "/massacres", {"by": GERMAN, "note": note}))
    proposal = out["seq"]
    assert (out["status"], out["by"], out["side"], out["note"]) == ("pending", US, GERMAN, note)
    assert (out["rule"], out["cg_date"], out["massacre"]) == ("kgp:CG4", "19 AM", {})
    (listed,) = ok(game.get(GERMAN, "/proposals?status=pending&kind=massacre"))["items"]
    assert (listed["seq"], listed["kind"], listed["type"], listed["by"]) == (
        proposal,
        "massacre",
        "MassacreProposed",
        US,
    )
    assert (listed["proposed"]["side"], listed["proposed"]["note"]) == (GERMAN, note)
    for role in (US, GERMAN, "referee"):
        assert "massacre" not in _conditions(game, role)  # pending changes nothing
    assert_problem(game.post(US, f"/proposals/{proposal}/approve"), 403)
    approved = ok(game.post(GERMAN, f"/proposals/{proposal}/approve"))
    assert (approved["status"], approved["kind"], approved["answer"]["by"]) == (
        "applied",
        "massacre",
        GERMAN,
    )
    recorded = approved["answer"]["seq"]
    (event,) = ok(game.get(US, f"/events?after={recorded - 1}&limit=1"))["items"]
    assert event["type"] == "MassacreRecorded"
    assert (event["payload"]["proposal"], event["payload"]["approved_by"]) == (proposal, GERMAN)
    for role in (US, GERMAN, "referee"):
        shown = _conditions(game, role)["massacre"]
        assert list(shown) == [GERMAN]
        assert (shown[GERMAN]["seq"], shown[GERMAN]["proposal"]) == (recorded, proposal)
        assert shown[GERMAN]["value"].startswith("A20.3-4 apply:")
    # As of the proposal: none; as of its approval: the German's.
    assert "massacre" not in _conditions(game, US, at=proposal)
    assert _conditions(game, US, at=recorded)["massacre"][GERMAN]["seq"] == recorded
    # One per side: its effects last the CG already.
    again = assert_problem(game.post(US, "/massacres", {"by": GERMAN}), 409)
    assert again["detail"].startswith(
        f"CG4: a Massacre by the German is recorded already (event {recorded}"
    )
    assert_problem(game.post(GERMAN, f"/proposals/{proposal}/approve"), 409)
    # The log with the proposal and its approval verifies (``cgledger verify``).
    export = game.client.get(f"{game.url}/export", headers=game.h(US)).content
    assert verify_bytes(export).events == game.version()


def test_rejected_and_the_referees_at_once(client: TestClient) -> None:
    game = _kgp(client)
    seq = created(game.post(GERMAN, "/massacres", {"by": US}))["seq"]
    rejected = ok(game.post(US, f"/proposals/{seq}/reject", {"note": "never happened"}))
    assert (rejected["status"], rejected["answer"]["note"]) == ("rejected", "never happened")
    assert "massacre" not in _conditions(game, GERMAN)
    ruling = created(game.post("referee", "/massacres", {"by": US}))
    assert (ruling["status"], ruling["by"]) == ("applied", "referee")
    assert ruling["massacre"][US]["seq"] == ruling["seq"]
    assert _conditions(game, GERMAN)["massacre"][US]["proposal"] is None
    assert ok(game.get(US, "/proposals?kind=massacre"))["items"][0]["seq"] == seq  # only that one


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"by": "British"}, "by"),
        ({}, "by"),
        ({"by": GERMAN, "note": " "}, "note"),
        ({"by": GERMAN, "note": ""}, "note"),
        ({"by": GERMAN, "side": GERMAN}, "side"),
    ],
)
def test_a_bad_body_is_422_naming_the_field(client: TestClient, body: Any, field: str) -> None:
    game = _kgp(client)
    before = game.version()
    problem = assert_problem(game.post(US, "/massacres", body), 422)
    assert problem["field"] == field, problem
    assert game.version() == before


def test_a_ruleset_without_cg4_has_no_massacres(client: TestClient) -> None:
    body = {"ruleset": "abtf", "campaign": "CG I", "title": "no cg4", "start_date": "18 AM"}
    game = Game(client, body)
    problem = assert_problem(game.post("British", "/massacres", {"by": GERMAN}), 404)
    assert problem["detail"].startswith("abtf keeps no Massacre for the CG")


def test_the_elr_is_read_as_of_any_event_and_amended_by_agreement(client: TestClient) -> None:
    """The definition's ``elr`` is amended like any field (DESIGN §7): the ELR
    shown follows it from the amendment on; ``?at=`` before it reads the old."""
    game = _kgp(client)
    shown = _conditions(game, US)["elr"]
    assert {s: e["value"] for s, e in shown.items()} == PRINTED
    assert shown[GERMAN]["non_ss"]["value"] == 3
    patch = {"patch": {"elr": {US: 3}}, "reason": "CG I's Initial Scenario prints 3"}
    asked = created(game.post(US, "/definition-amendments", patch))
    ok(game.post(GERMAN, f"/definition-amendments/{asked['id']}/approve"))
    assert _conditions(game, GERMAN)["elr"][US]["value"] == 3
    assert _conditions(game, GERMAN, at=asked["id"])["elr"][US]["value"] == PRINTED[US]
