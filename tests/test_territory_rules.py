"""Rules on territory beyond the Setup Areas themselves (issue 14): the 8.6232
footnote's German Attack Chit after 8.6131, a stated winner where 8.6234b is
cut, and SG's CG Victory Conditions."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Game, agree_control, assert_problem, created, ok

pytestmark = pytest.mark.shared_app


def _groups(game: Game) -> list[str]:
    definition = ok(game.get("US", "/definition"))["definition"]
    return [g["id"] for g in definition["map_groups"]]


def _to_initiative(kgp: Game) -> None:
    kgp.next_date()
    kgp.replenish()
    for side in ("US", "German"):
        kgp.advance(side, "8.623")


def test_no_german_attack_chit_while_every_map_group_is_vacated(kgp: Game) -> None:
    """8.6232 footnote: "The Attack Chit cannot be selected by the German
    player if the U.S. player currently has no on-map Retained units (8.6131)"."""
    kgp.end_scenario()
    for group in _groups(kgp):
        agree_control(kgp, "US", {"map_group": group, "rule": "8.6131"})
    _to_initiative(kgp)
    before = kgp.version()
    problem = assert_problem(kgp.post("German", "/initiative", {"chit": "attack"}), 409)
    assert problem["detail"].startswith("8.6232: "), problem
    assert kgp.version() == before
    created(kgp.post("US", "/initiative", {"chit": "attack"}))  # the U.S. may attack
    out = created(kgp.post("German", "/initiative", {"chit": "idle"}))
    assert out["scenario"] == "us-assault"


def test_the_german_may_attack_while_one_map_group_keeps_us_units(kgp: Game) -> None:
    kgp.end_scenario()
    groups = _groups(kgp)
    for group in groups[1:]:
        agree_control(kgp, "US", {"map_group": group, "rule": "8.6131"})
    _to_initiative(kgp)
    created(kgp.post("German", "/initiative", {"chit": "attack"}))


def test_8_6131_lasts_only_until_the_next_scenario(kgp: Game) -> None:
    kgp.end_scenario()
    for group in _groups(kgp):
        agree_control(kgp, "US", {"map_group": group, "rule": "8.6131"})
    # A U.S. Assault is played: U.S. units are on the map again.
    _to_initiative(kgp)
    created(kgp.post("US", "/initiative", {"chit": "attack"}))
    created(kgp.post("German", "/initiative", {"chit": "idle"}))
    kgp.end_scenario()
    _to_initiative(kgp)
    created(kgp.post("German", "/initiative", {"chit": "attack"}))


def _sg_end(sg: Game, vp: int, required: int, cvp: dict[str, int], **extra: Any) -> Any:
    for side in ("American", "German"):
        sg.advance(side, "scenario")
    body = {"cvp": cvp, "vp": {"American": vp}, "vp_required": required, **extra}
    return sg.post("referee", "/scenario-end", body)


def test_sg_names_the_winner_where_its_text_decides(client: Any) -> None:
    sg = Game(client, {"ruleset": "sg", "campaign": "SG"})
    created(_sg_end(sg, 63, 55, {"American": 10, "German": 41}))
    line = ok(sg.get("German", "/roster?side=American"))["lines"][-1]
    assert line["winner"] == "American"
    assert line["winner_rule"].startswith("2.9: ")
    assert line["cg_winner"] is None  # 63 < 150


def test_sg_takes_a_stated_winner_only_where_its_text_is_cut(client: Any) -> None:
    sg = Game(client, {"ruleset": "sg", "campaign": "SG"})
    # 40 < 55: 2.9 is cut after "and/"; the referee states the German won.
    created(_sg_end(sg, 40, 55, {"American": 10, "German": 20}, winner="German"))
    line = ok(sg.get("American", "/roster?side=American"))["lines"][-1]
    assert line["winner"] == "German"
    assert "stated" in line["winner_rule"]
    other = Game(client, {"ruleset": "sg", "campaign": "SG"})
    refused = _sg_end(other, 200, 55, {"American": 0, "German": 0}, winner="German")
    before = other.version()
    problem = assert_problem(refused, 409)
    assert problem["detail"].startswith("2.9: "), problem
    assert ok(other.get("referee", "/roster?side=American"))["lines"] == []
    assert other.version() == before


def test_sg_cg_victory_at_150_vp_unless_the_german_amassed_105_cvp(client: Any) -> None:
    sg = Game(client, {"ruleset": "sg", "campaign": "SG"})
    created(_sg_end(sg, 150, 55, {"American": 0, "German": 104}))
    assert ok(sg.get("German", "/roster?side=American"))["lines"][-1]["cg_winner"] == "American"
    other = Game(client, {"ruleset": "sg", "campaign": "SG"})
    created(_sg_end(other, 150, 55, {"American": 0, "German": 105}))
    assert ok(other.get("German", "/roster?side=American"))["lines"][-1]["cg_winner"] is None


def test_scenario_end_takes_the_last_control_changes_and_counts_them(kgp: Game) -> None:
    """DESIGN §8: ``scenario-end`` may carry the last Control changes; both
    sides send the same body, the LVP is counted after them, and GET /control
    shows them with the scenario end's seq."""
    for side in ("US", "German"):
        kgp.advance(side, "scenario")
    change = {"map_group": "Sx", "locations": [{"hex": "B2", "side": "German"},
                                              {"hex": "C1", "side": None}]}  # fmt: skip
    body = {"cvp": {"US": 3, "German": 4}, "control": [change]}
    assert created(kgp.post("US", "/scenario-end", body))["status"] == "proposed"
    other = {**body, "control": [{**change, "locations": change["locations"][:1]}]}
    assert_problem(kgp.post("German", "/scenario-end", other), 409)  # not the same body
    out = created(kgp.post("German", "/scenario-end", body))
    assert out["status"] == "recorded"
    seq = out["seq"]
    (group,) = (g for g in ok(kgp.get("US", "/control"))["map_groups"] if g["map_group"] == "Sx")
    shown = {(x["hex"], x["level"]): (x["side"], x["seq"]) for x in group["locations"]}
    assert shown[("B2", 0)] == ("German", seq)
    assert shown[("C1", 0)] == (None, seq)
    row = ok(kgp.get("US", "/lvp"))["rows"][-1]
    definition = ok(kgp.get("US", "/definition"))["definition"]
    lvp = {h["hex"]: h.get("lvp", 0) for h in definition["map_groups"][0]["hexes"]}
    initial = definition["map_groups"][0]["initial_control"]
    assert initial["B2"] == "US"  # so the change moves B2's LVP
    assert row["current_lvp"]["German"] - row["start_lvp"]["German"] == lvp["B2"] + (
        -lvp["C1"] if initial.get("C1") == "German" else 0
    )


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"map_group": "Nope", "locations": [{"hex": "A1", "side": "US"}]}, "control[0].map_group"),
        ({"map_group": "Sx", "locations": [{"hex": "Z9", "side": "US"}]},
         "control[0].locations[0].hex"),
        ({"map_group": "Sx", "locations": [{"hex": "A1", "side": "Soviet"}]},
         "control[0].locations[0].side"),
    ],
)  # fmt: skip
def test_a_bad_control_change_at_scenario_end_is_422(
    kgp: Game, change: dict[str, Any], field: str
) -> None:
    for side in ("US", "German"):
        kgp.advance(side, "scenario")
    before = kgp.version()
    body = {"cvp": {"US": 0, "German": 0}, "control": [change]}
    problem = assert_problem(kgp.post("US", "/scenario-end", body), 422)
    assert problem["field"] == field, problem
    assert kgp.version() == before


def test_an_undo_rebuilds_8_6131_and_the_frozen_setup_areas(kgp: Game) -> None:
    """Undo replays the state events still in force (DESIGN §5): the 8.6131
    record keeps the German Attack chit refused and its Locations in the
    frozen Setup Areas, after a later Control record is undone."""
    kgp.end_scenario()
    groups = _groups(kgp)
    kgp.advance("US", "8.606")  # past 8.605: the Setup Areas are determined
    for group in groups:
        agree_control(kgp, "US", {"map_group": group, "rule": "8.6131"})
    frozen = ok(kgp.get("German", f"/setup-areas?map_group={groups[0]}"))
    assert frozen["frozen"] is True
    body = {"map_group": groups[0], "locations": [{"hex": "A1", "side": "US"}]}
    seq = agree_control(kgp, "US", body)["seq"]
    undo = created(kgp.post("German", "/undo-requests", {"seqs": [seq], "reason": "misread"}))
    assert undo["status"] == "pending"  # the approval put an agreement in force (§13)
    assert ok(kgp.post("US", f"/undo-requests/{undo['id']}/approve"))["status"] == "applied"
    again = ok(kgp.get("German", f"/setup-areas?map_group={groups[0]}"))
    keys = ("hexes", "areas", "sides", "frozen", "frozen_at")
    assert {k: again[k] for k in keys} == {k: frozen[k] for k in keys}
    strategic = [h for h in again["hexes"] if h["strategic"]]
    assert strategic
    assert all(h["controlled_by"] == "German" for h in strategic)
    kgp.advance("US", "8.612")
    _to_initiative(kgp)
    problem = assert_problem(kgp.post("German", "/initiative", {"chit": "attack"}), 409)
    assert problem["detail"].startswith("8.6232: ")


def test_a_stated_winner_the_rules_contradict_is_refused_to_the_first_side(client: Any) -> None:
    """The first side's proposal is checked too, so a wrong winner cannot block
    the scenario end until the referee steps in (a review found it could)."""
    sg = Game(client, {"ruleset": "sg", "campaign": "SG"})
    for side in ("American", "German"):
        sg.advance(side, "scenario")
    body = {"cvp": {"American": 0, "German": 0}, "vp": {"American": 60}, "vp_required": 55}
    before = sg.version()
    problem = assert_problem(
        sg.post("American", "/scenario-end", {**body, "winner": "German"}), 409
    )
    assert problem["detail"].startswith("2.9: "), problem
    assert sg.version() == before
    assert created(sg.post("American", "/scenario-end", body))["status"] == "proposed"
    assert created(sg.post("German", "/scenario-end", body))["status"] == "recorded"
