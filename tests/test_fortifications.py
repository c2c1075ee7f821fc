"""8.621 Fortifications over REST: FPP bought in 8.619, Fortifications bought
in 8.621, their setup Locations recorded secretly in 8.6242 within the side's
Setup Areas (footnotes i and S), and placed on-map by 8.6073 once they lie in
the opponent's Setup Area: a minefield by its presence only."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import US_TAKES_SX, Game, assert_problem, created, ok
from fastapi.testclient import TestClient

pytestmark = pytest.mark.shared_app

KGP = {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": 40, "US": 10}}


def _german_hexes(game: Game) -> list[str]:
    view = ok(game.get("German", "/setup-areas?map_group=Sx"))
    return [hx for a in view["areas"] if a["side"] == "German" for hx in a["hexes"]]


def _to_unit_setup(game: Game) -> None:
    """The Initial Scenario played, then 19 PM to 8.624 with a Dual Attack."""
    game.end_scenario()
    game.next_date()
    for side in ("US", "German"):
        game.advance(side, "8.623")
    game.choose_chits("attack")
    for side in ("US", "German"):
        game.advance(side, "8.624")


def _bought(client: TestClient) -> Game:
    game = Game(client, KGP)
    created(game.post("German", "/rg-purchases", {"rg": "F1", "map_group": "Sx"}))
    game.advance("German", "8.621")
    items = [{"type": "at-mine-factor", "count": 1}, {"type": "dummy", "count": 1}]
    created(game.post("German", "/fortification-purchases", {"items": items}))
    return game


def test_fpp_are_bought_spent_and_the_rest_forfeit(client: TestClient) -> None:
    game = Game(client, KGP)
    created(game.post("German", "/rg-purchases", {"rg": "F1", "map_group": "Sx"}))
    # Fortifications are bought in 8.621, after the RG (8.619) and their rolls (8.620).
    game.advance("German", "8.621")
    version = game.version()
    body = {"items": [{"type": "trench", "count": 1}]}  # 7 FPP; the German holds 5
    problem = assert_problem(game.post("German", "/fortification-purchases", body), 409)
    assert problem["detail"] == (
        "8.621: these Fortifications cost 7 FPP but German holds 5 FPP on 19 AM "
        "(FPP are bought in 8.619)"
    )
    bad = {"items": [{"type": "wire", "count": 1}]}
    assert assert_problem(game.post("German", "/fortification-purchases", bad), 422)["field"] == (
        "items.0.type"
    )
    assert game.version() == version
    created(
        game.post("German", "/fortification-purchases", {"items": [{"type": "dummy", "count": 2}]})
    )
    line = ok(game.get("German", "/roster"))["lines"][-1]
    assert (line["fpp"], line["fpp_spent"], line["fortifications"]) == (5, 2, {"dummy": 2})
    assert line["fpp_forfeit"] is None  # not yet: the step is not completed
    seen = ok(game.get("US", "/roster?side=German"))["lines"][-1]
    assert (seen["fpp"], seen["fpp_spent"], seen["fortifications"]) == (None, None, None)
    assert {"fpp", "fpp_spent", "fortifications"} <= set(seen["hidden"])
    game.advance("German", "scenario")
    line = ok(game.get("German", "/roster"))["lines"][-1]
    assert line["fpp_forfeit"] == 3  # "All FPP unspent upon the completion of this step"
    assert_problem(game.post("German", "/fortification-purchases", {"items": []}), 409)


def test_setup_locations_are_secret_and_within_the_rules(client: TestClient) -> None:
    game = _bought(client)
    _to_unit_setup(game)
    mine, dummy = _german_hexes(game)[:2]
    version = game.version()

    def setup(items: list[dict[str, Any]], **extra: Any) -> Any:
        return game.post(
            "German", "/fortification-setups", {"map_group": "Sx", "items": items, **extra}
        )

    # Footnote S: a minefield only in a Setup Area with a Retained squad-equivalent.
    problem = assert_problem(setup([{"type": "at-mine-factor", "hex": mine}]), 409)
    assert problem["detail"].startswith("8.621: A-T Mine Factor may be added only to a Setup Area")
    # Not more than bought; only in the side's own Setup Area.
    problem = assert_problem(setup([{"type": "dummy", "hex": dummy, "count": 2}]), 409)
    assert problem["detail"] == '8.621: German bought 1 "?" (Dummy) and would set up 2'
    us_hex = next(
        h["hex"]
        for h in ok(game.get("US", "/setup-areas?map_group=Sx"))["hexes"]
        if h["status"] == "US"
    )
    problem = assert_problem(setup([{"type": "dummy", "hex": us_hex}]), 409)
    assert "is not in one" in problem["detail"]
    assert game.version() == version
    done = created(
        setup(
            [{"type": "at-mine-factor", "hex": mine}, {"type": "dummy", "hex": dummy}],
            retained={"A": 2},
        )
    )
    assert done["event"]["payload"]["owner"] == "German"
    mine_view = ok(game.get("German", "/rg-record"))["fortifications"]["placed"]
    assert [i["hex"] for i in mine_view[0]["items"]] == [mine, dummy]
    theirs = ok(game.get("US", "/rg-record?side=German"))["fortifications"]["placed"]
    assert theirs == [{"seq": done["seq"], "cg_date": "19 PM", "redacted": True}]
    # Nothing the US reads holds a Fortification item (a type with a hex), or its type.
    for path in ("/events?after=0&limit=1000", "/export", "/rg-record?side=German"):
        text = game.get("US", path).text
        assert "at-mine-factor" not in text
        docs = (
            [json.loads(line) for line in text.splitlines()]
            if path == "/export"
            else [json.loads(text)]
        )
        assert not [x for x in _objects(docs) if "hex" in x and "type" in x], path
    seen = ok(game.get("German", "/rg-record"))
    assert [x["type"] for x in _objects([seen]) if "hex" in x and "type" in x] == [
        "at-mine-factor", "dummy",
    ]  # fmt: skip


def _objects(value: Any) -> list[dict[str, Any]]:
    """Every JSON object within ``value``."""
    found: list[dict[str, Any]] = []
    if isinstance(value, dict):
        found.append(value)
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            found += _objects(item)
    return found


def test_8_6073_places_hidden_fortifications_in_the_opponents_setup_area(
    client: TestClient,
) -> None:
    game = _bought(client)
    _to_unit_setup(game)
    hexes = _german_hexes(game)
    mine = hexes[0]
    placed = created(
        game.post(
            "German",
            "/fortification-setups",
            {
                "map_group": "Sx",
                "items": [{"type": "at-mine-factor", "hex": mine}],
                "retained": {"A": 1},
            },
        )
    )
    # In RePh step 8.607, after a CG-Scenario End: not at 8.624 of the same CG Date.
    problem = assert_problem(game.post("US", "/hidden-fortifications", {"map_group": "Sx"}), 409)
    assert "8.607 (Equipment Possession & Hidden Fortifications) is past" in problem["detail"]
    # The U.S. takes every German Strategic Location of Sx at scenario end.
    game.end_scenario_agreed([US_TAKES_SX])
    game.advance("US", "8.606")  # past 8.605: the Setup Areas are determined
    view = ok(game.get("US", "/setup-areas?map_group=Sx"))
    assert view["frozen"]
    assert mine in [hx for a in view["areas"] if a["side"] == "US" for hx in a["hexes"]]
    shown = created(game.post("US", "/hidden-fortifications", {"map_group": "Sx"}))
    # A minefield by its presence only: no type, no factors, no placement or item index.
    revealed = shown["event"]["payload"]["revealed"]
    assert revealed == [{"side": "German", "hex": mine, "level": 0, "type": "minefield"}]
    forts = ok(game.get("US", "/rg-record?side=German"))["fortifications"]
    assert forts["placed"] == [{"seq": placed["seq"], "cg_date": "19 PM", "redacted": True}]
    assert forts["placed_on_map"] == [{"map_group": "Sx", **revealed[0]}]
    # Placed once: asking again places nothing more.
    again = created(game.post("German", "/hidden-fortifications", {"map_group": "Sx"}))
    assert again["event"]["payload"]["revealed"] == []


def test_abtf_fortifications_are_set_up_only_for_a_generated_scenario(client: TestClient) -> None:
    """9.6214: Unit Setup follows 9.6213 in the same step (9.621). Before the
    Initiative is determined, or on an Idle CG Date, there is nothing to set
    up, so no setup record can exist that the other side's empty one would
    not match (DESIGN §4)."""
    abtf = Game(client, {"ruleset": "abtf", "campaign": "CG I", "start_date": "18 PM"})
    group = ok(abtf.get("referee", "/definition"))["definition"]["map_groups"][0]["id"]
    body = {"map_group": group, "items": [{"type": "trench", "hex": "A1"}]}

    def refused(start: str, end: str = "") -> None:
        version = abtf.version()
        problem = assert_problem(abtf.post("German", "/fortification-setups", body), 409)
        assert problem["detail"].startswith(start)
        assert problem["detail"].endswith(end)
        assert abtf.version() == version

    abtf.end_scenario()
    abtf.next_date()
    abtf.advance("German", "9.621")
    refused("9.621: Fortifications are set up for a CG Scenario", "(not determined yet)")
    abtf.advance("British", "9.621")
    abtf.choose_chits("idle")
    # 9.62132 note 2: an Idle date sends each side back to repeat 9.612-.620.
    refused("9.612: ")
    abtf.next_date()
    abtf.advance("German", "9.621")
    abtf.advance("British", "9.621")
    abtf.choose_chits("attack")
    # With a scenario generated, the setup reaches its own checks (nothing was bought).
    problem = assert_problem(abtf.post("German", "/fortification-setups", body), 409)
    assert problem["detail"].startswith("9.619: German bought 0 Trench")


def _setup_record(game: Game, viewer: str, seq: int) -> Any:
    (event,) = ok(game.get(viewer, f"/events?after={seq - 1}&limit=1"))["items"]
    return event


def test_one_setup_record_holds_every_map_group_or_none(client: TestClient) -> None:
    """DESIGN §4: the step's one sealed record tells the U.S. neither in how
    many map groups the German set Fortifications up nor whether it did."""
    game = Game(client, KGP)
    created(game.post("German", "/rg-purchases", {"rg": "F1", "map_group": "Sx"}))
    game.advance("German", "8.621")
    created(
        game.post("German", "/fortification-purchases", {"items": [{"type": "dummy", "count": 2}]})
    )
    _to_unit_setup(game)
    groups = {}
    for group in ("Sx", "Sy"):
        view = ok(game.get("German", f"/setup-areas?map_group={group}"))
        groups[group] = next(
            hx for a in view["areas"] if a["side"] == "German" for hx in a["hexes"]
        )
    body = {
        "map_group": "Sx",
        "items": [{"type": "dummy", "hex": groups["Sx"]}],
        "more": [{"map_group": "Sy", "items": [{"type": "dummy", "hex": groups["Sy"]}]}],
    }
    twice = {**body, "more": [{**body["more"][0], "map_group": "Sx"}]}
    version = game.version()
    assert assert_problem(game.post("German", "/fortification-setups", twice), 422)["field"] == (
        "more.0.map_group"
    )
    assert game.version() == version
    done = created(game.post("German", "/fortification-setups", body))
    assert game.version() == version + 1  # one record for both map groups
    mine = ok(game.get("German", "/rg-record"))["fortifications"]["placed"]
    assert [(p["seq"], p["map_group"]) for p in mine] == [(done["seq"], "Sx"), (done["seq"], "Sy")]
    theirs = ok(game.get("US", "/rg-record?side=German"))["fortifications"]["placed"]
    assert theirs == [{"seq": done["seq"], "cg_date": "19 PM", "redacted": True}]

    # An empty request is one record too, which reads to the U.S. as the one the
    # step seals for a side that sets nothing up.
    other = Game(client, KGP)
    _to_unit_setup(other)
    empty = created(other.post("German", "/fortification-setups", {"map_group": "Sx"}))
    passed = Game(client, KGP)
    _to_unit_setup(passed)
    passed.advance("German", "scenario")
    sealed = [
        e
        for e in ok(passed.get("US", "/events?after=0&limit=1000"))["items"]
        if e["type"] == "RecordSealed" and e["payload"]["step"] == "8.624"
    ]
    assert len(sealed) == 1
    shown = [
        _setup_record(other, "US", empty["seq"]),
        sealed[0],
        _setup_record(game, "US", done["seq"]),
    ]
    assert {e["type"] for e in shown} == {"RecordSealed"}
    assert len({json.dumps(sorted(e["payload"]), sort_keys=True) for e in shown}) == 1
    assert all("secret" not in e or e["secret"] is None for e in shown)
    owner = _setup_record(other, "German", empty["seq"])["secret"]
    assert (owner["kind"], owner["items"], owner["map_group"]) == ("FortificationsPlaced", [], None)
