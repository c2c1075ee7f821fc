"""Setup Areas, Control and scenario winners over REST (issue 14; DESIGN §9),
on hand-made CG definitions uploaded at creation (the ruleset's sample with
its ``map_groups`` replaced): ``GET /setup-areas`` and its SVG, live and then
frozen from the Setup Area step (8.605) until the next scenario, 8.6131,
markers, ABtF Blocks (9.605, 9.6051) and 9.6212, a stated scenario winner
(8.6234, 9.6211), and bad input refused without appending."""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from conftest import Game, agree_control, assert_problem, created, ok
from fastapi.testclient import TestClient

from cgledger.api.models import SetupAreasView
from cgledger.domain.definitions import hex_entry
from cgledger.domain.rulesets import REGISTRY

pytestmark = pytest.mark.shared_app

KGP_SIDES = ("US", "German")
ABTF_SIDES = ("British", "German")

# ------------------------------------------------------------------ definitions

#: KGP map "M": columns A-F, rows 1-5. B2 (U.S., with a first level) and E3
#: (German) are Strategic; the U.S. enters on column A, the German on F.
KGP_SPECIAL: dict[str, dict[str, Any]] = {
    "B2": {"strategic": True, "lvp": 5, "levels": [0, 1]},
    "E3": {"strategic": True, "lvp": 5},
    "D5": {"enterable": False},
}
KGP_HEXES = [f"{c}{r}" for c in "ABCDEF" for r in range(1, 6)]


def kgp_group(group_id: str = "M") -> dict[str, Any]:
    return {
        "id": group_id,
        "title": "hand-made KGP map",
        "hexes": [hex_entry(hx, **KGP_SPECIAL.get(hx, {})) for hx in KGP_HEXES],
        "entry_areas": [
            {"id": "US-W", "side": "US", "hexes": [f"A{r}" for r in range(1, 6)]},
            {"id": "G-E", "side": "German", "hexes": [f"F{r}" for r in range(1, 6)]},
        ],
        "initial_control": {"B2": "US", "E3": "German"},
    }


def kgp_game(client: TestClient, groups: list[dict[str, Any]] | None = None) -> Game:
    definition = copy.deepcopy(dict(REGISTRY["kgp"].sample_definition))
    definition["map_groups"] = groups if groups is not None else [kgp_group()]
    body = {"ruleset": "kgp", "campaign": "CG I", "title": "setup areas", "definition": definition}
    return Game(client, {**body, "initial_cpp": {"German": 2}})


#: ABtF map "Ar": columns A-E, rows 1-4. Block C (B1-B3; B2, B3 Strategic,
#: British) and Block H (D1-D3; D2 British, D3 German: nobody holds it).
ABTF_SPECIAL: dict[str, dict[str, Any]] = {
    "B1": {"block": "C"},
    "B2": {"block": "C", "strategic": True, "lvp": 2},
    "B3": {"block": "C", "strategic": True, "lvp": 2},
    "D1": {"block": "H"},
    "D2": {"block": "H", "strategic": True, "lvp": 3},
    "D3": {"block": "H", "strategic": True, "lvp": 3},
}
ABTF_HEXES = [f"{c}{r}" for c in "ABCDE" for r in range(1, 5)]


def abtf_game(client: TestClient) -> Game:
    definition = copy.deepcopy(dict(REGISTRY["abtf"].sample_definition))
    definition["sudden_death_blocks"] = {"German": "H"}
    definition["map_groups"] = [
        {
            "id": "Ar",
            "title": "hand-made ABtF map",
            "hexes": [hex_entry(hx, **ABTF_SPECIAL.get(hx, {})) for hx in ABTF_HEXES],
            "entry_areas": [
                {"id": "Br-W", "side": "British", "hexes": ["A1", "A2"]},
                {"id": "Ge-E", "side": "German", "hexes": ["E1", "E2"]},
            ],
            "initial_control": {"B2": "British", "B3": "British", "D2": "British", "D3": "German"},
        }
    ]
    body = {"ruleset": "abtf", "campaign": "CG I", "start_date": "18 AM", "title": "blocks"}
    return Game(client, {**body, "definition": definition})


# ------------------------------------------------------------------ helpers


def areas(game: Game, query: str = "", role: str = "referee") -> dict[str, Any]:
    view: dict[str, Any] = ok(game.get(role, f"/setup-areas{query}"))
    return view


def hexes(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {h["hex"]: h for h in view["hexes"]}


def control(game: Game, group: str, role: str = "referee", **body: Any) -> dict[str, Any]:
    """Control in force: the referee's, or a side's approved by its opponent."""
    return agree_control(game, role, {"map_group": group, **body})


def locations(game: Game, query: str = "") -> dict[tuple[str, int], dict[str, Any]]:
    (group,) = ok(game.get("referee", f"/control{query}"))["map_groups"]
    return {(x["hex"], x["level"]): x for x in group["locations"]}


def step_after(game: Game, step: str) -> str:
    """The RePh step that follows ``step`` (from ``GET /reph``)."""
    ids = [s["rule"] for s in ok(game.get("referee", "/reph"))["steps"]]
    found: str = ids[ids.index(step) + 1]
    return found


def play(game: Game, us: str, german: str) -> None:
    """The next KGP CG Date: the sides reach 8.623, choose their chits and
    reach the scenario."""
    created(game.post("referee", "/cg-dates", {}))
    game.replenish()
    for side in KGP_SIDES:
        game.advance(side, "8.623")
    created(game.post("US", "/initiative", {"chit": us}))
    created(game.post("German", "/initiative", {"chit": german}))
    for side in KGP_SIDES:
        game.advance(side, "scenario")


def end(game: Game, **extra: Any) -> Any:
    cvp = dict.fromkeys(REGISTRY[game.created["ruleset"]].sides, 0)
    return game.post("referee", "/scenario-end", {"cvp": cvp, **extra})


# ------------------------------------------------------------------ the view


def test_kgp_answers_the_models_fields(client: TestClient) -> None:
    game = kgp_game(client)
    view = areas(game, role="US")
    assert set(view) == set(SetupAreasView.model_fields)
    assert (view["map_group"], view["step"], view["frozen"], view["frozen_at"]) == (
        "M",
        "8.605",
        False,
        None,
    )
    assert view["cg_date"] == game.cg_date()
    assert view["version"] == game.version()
    assert sorted(h["hex"] for h in view["hexes"]) == sorted(KGP_HEXES)
    shown = hexes(view)
    assert (shown["B2"]["status"], shown["B2"]["strategic"]) == ("US", True)
    assert (shown["E3"]["status"], shown["E3"]["controlled_by"]) == ("German", "German")
    assert shown["A5"]["status"] == "uncontrolled"  # three hexes from B2
    assert shown["D5"]["enterable"] is False
    assert set(view["sides"]) == set(KGP_SIDES)
    assert {a["side"] for a in view["areas"]} == set(KGP_SIDES)
    assert all(a["isolated"] is False for a in view["areas"])


def test_abtf_answers_the_models_fields_with_its_blocks(client: TestClient) -> None:
    game = abtf_game(client)
    view = areas(game, role="German")
    assert set(view) == set(SetupAreasView.model_fields)
    assert (view["map_group"], view["step"], view["frozen"]) == ("Ar", "9.605", False)
    assert view["blocks"] == {"C": "British", "H": None}
    shown = hexes(view)
    assert [shown[hx]["status"] for hx in ("B1", "B2", "B3")] == ["British"] * 3
    assert [shown[hx]["status"] for hx in ("D1", "D2", "D3", "A1")] == ["uncontrolled"] * 4
    assert shown["B1"]["block"] == "C"
    assert {h["status"] for h in view["hexes"]} <= {"British", "uncontrolled"}
    assert view["sides"]["British"]["blocks"] == ["C"]


def test_several_map_groups_need_map_group(client: TestClient) -> None:
    game = kgp_game(client, [kgp_group("M"), kgp_group("N")])
    problem = assert_problem(game.get("US", "/setup-areas"), 422)
    assert problem["field"] == "map_group"
    assert "M" in problem["detail"]
    assert "N" in problem["detail"]
    assert areas(game, "?map_group=N")["map_group"] == "N"
    assert areas(game, "?map_group=M")["map_group"] == "M"
    problem = assert_problem(game.get("US", "/setup-areas.svg"), 422)
    assert problem["field"] == "map_group"


def test_an_unknown_map_group_is_422(client: TestClient) -> None:
    game = kgp_game(client)
    problem = assert_problem(game.get("US", "/setup-areas?map_group=Nope"), 422)
    assert problem["field"] == "map_group"
    problem = assert_problem(game.get("US", "/setup-areas.svg?map_group=Nope"), 422)
    assert problem["field"] == "map_group"


def test_sg_has_no_setup_areas(client: TestClient) -> None:
    game = Game(client, {"ruleset": "sg", "campaign": "SG"})
    assert_problem(game.get("American", "/setup-areas"), 404)
    assert_problem(game.get("American", "/setup-areas.svg"), 404)


# ------------------------------------------------------------------ live, then frozen


def test_control_changes_the_answer_live(client: TestClient) -> None:
    game = kgp_game(client)
    before = game.version()
    assert hexes(areas(game))["E3"]["status"] == "German"
    seq = control(game, "M", "US", locations=[{"hex": "E3", "side": "US"}])["seq"]
    view = areas(game, role="German")
    assert view["frozen"] is False
    shown = hexes(view)
    assert shown["E3"]["status"] == "US"
    assert shown["F3"]["status"] == "US"  # within two hexes of E3
    assert view["sides"]["German"]["areas"] == 0
    assert view["sides"]["German"]["note"] is not None  # 8.605's Holding Box
    then = hexes(areas(game, f"?at={before}"))
    assert then["E3"]["status"] == "German"
    assert hexes(areas(game, f"?at={seq}"))["E3"]["status"] == "US"


def test_setup_areas_freeze_at_the_first_advance_past_8_605(client: TestClient) -> None:
    """MARKING THE MAP: once marked, the Setup Areas "remain thus until the
    start of the next CG scenario": from the first side's advance past 8.605
    after a CG-Scenario End they keep the Control of that moment."""
    game = kgp_game(client)
    game.end_scenario()
    control(game, "M", locations=[{"hex": "E3", "side": "US"}])
    # At 8.605, not past it: still live.
    game.advance("US", "8.605")
    assert areas(game)["frozen"] is False
    nxt = step_after(game, "8.605")
    assert nxt == "8.606"
    game.advance("German", nxt)
    advanced = game.version()
    frozen = areas(game, role="US")
    assert (frozen["frozen"], frozen["frozen_at"]) == (True, advanced)
    assert hexes(frozen)["E3"]["status"] == "US"
    # Control recorded now changes GET /control, not the frozen Setup Areas.
    moved = [{"hex": "E3", "side": "German"}, {"hex": "B2", "side": "German"}]
    seq = control(game, "M", "German", locations=moved)["seq"]
    assert locations(game)[("E3", 0)]["side"] == "German"
    assert locations(game)[("B2", 0)]["side"] == "German"
    still = areas(game, role="German")
    assert (still["frozen"], still["frozen_at"]) == (True, advanced)
    assert hexes(still)["E3"]["status"] == "US"
    assert hexes(still)["B2"]["status"] == "US"
    assert still["hexes"] == frozen["hexes"]
    assert areas(game, f"?at={seq}")["hexes"] == frozen["hexes"]
    # As of the event before the advance: the live computation.
    before = areas(game, f"?at={advanced - 1}")
    assert (before["frozen"], before["frozen_at"]) == (False, None)
    assert hexes(before)["E3"]["status"] == "US"
    # Both sides at "scenario" again: live, from the Control recorded since.
    play(game, "attack", "attack")
    assert ok(game.get("referee", "/reph"))["current"] == {"US": "scenario", "German": "scenario"}
    live = areas(game)
    assert (live["frozen"], live["frozen_at"]) == (False, None)
    assert hexes(live)["E3"]["status"] == "German"
    assert hexes(live)["B2"]["status"] == "German"


# ------------------------------------------------------------------ 8.6131


def test_8_6131_is_the_us_sides_to_record(client: TestClient) -> None:
    game = kgp_game(client)
    before = game.version()
    problem = assert_problem(
        game.post("German", "/control", {"map_group": "M", "rule": "8.6131"}), 409
    )
    assert problem["detail"].startswith("8.6131")
    assert problem.get("rule") == "8.6131"
    assert game.version() == before


def test_8_6131_makes_every_strategic_location_german(client: TestClient) -> None:
    game = kgp_game(client)
    control(game, "M", "US", locations=[{"hex": "C3", "side": "US", "marker": "G"}])
    out = control(game, "M", "US", rule="8.6131")
    seq = out["seq"]
    shown = locations(game)
    for hx in ("B2", "E3", "C3"):
        assert shown[(hx, 0)]["side"] == "German", hx
        assert shown[(hx, 0)]["seq"] == seq
    assert shown[("B2", 1)]["side"] == "German"  # each of its Locations
    view = hexes(areas(game))
    for hx in ("B2", "E3", "C3"):
        assert (view[hx]["status"], view[hx]["controlled_by"]) == ("German", "German"), hx
    assert not any(h["status"] == "US" for h in view.values())


def test_8_6131_enters_frozen_setup_areas(client: TestClient) -> None:
    game = kgp_game(client)
    game.end_scenario()
    game.advance("US", "8.606")
    frozen = areas(game)
    assert frozen["frozen"] is True
    assert hexes(frozen)["B2"]["status"] == "US"
    control(game, "M", "referee", locations=[{"hex": "A1", "side": "German"}])  # not entered
    control(game, "M", "US", rule="8.6131")
    now = areas(game)
    assert (now["frozen"], now["frozen_at"]) == (True, frozen["frozen_at"])
    shown = hexes(now)
    assert (shown["B2"]["status"], shown["B2"]["controlled_by"]) == ("German", "German")
    assert shown["A1"]["controlled_by"] is None


def test_8_6131_with_locations_is_422(client: TestClient) -> None:
    game = kgp_game(client)
    before = game.version()
    body = {"map_group": "M", "rule": "8.6131", "locations": [{"hex": "A1", "side": "US"}]}
    problem = assert_problem(game.post("US", "/control", body), 422)
    assert problem["field"] == "locations"
    assert game.version() == before


# ------------------------------------------------------------------ markers


def test_a_marker_makes_a_hex_strategic_and_none_removes_it(client: TestClient) -> None:
    """MARKING THE MAP: a functioning Gun (G) makes its Location Strategic."""
    game = kgp_game(client)
    assert hexes(areas(game))["C5"]["strategic"] is False
    control(game, "M", "US", locations=[{"hex": "C5", "side": "US", "marker": "G"}])
    assert locations(game)[("C5", 0)]["marker"] == "G"
    shown = hexes(areas(game))
    assert (shown["C5"]["strategic"], shown["C5"]["marker"]) == (True, "G")
    assert shown["C5"]["status"] == "US"
    assert shown["E5"]["status"] == "nml"  # two from C5 (U.S.) and from E3 (German)
    control(game, "M", "US", locations=[{"hex": "C5", "side": "US", "marker": "none"}])
    assert (
        "marker" not in locations(game)[("C5", 0)] or locations(game)[("C5", 0)]["marker"] is None
    )
    shown = hexes(areas(game))
    assert (shown["C5"]["strategic"], shown["C5"]["marker"]) == (False, None)
    assert shown["E5"]["status"] == "German"


def test_a_marker_left_out_is_unchanged(client: TestClient) -> None:
    game = kgp_game(client)
    control(game, "M", "US", locations=[{"hex": "C5", "side": "US", "marker": "E"}])
    control(game, "M", "German", locations=[{"hex": "C5", "side": "German"}])
    assert locations(game)[("C5", 0)]["marker"] == "E"
    shown = hexes(areas(game))["C5"]
    assert (shown["strategic"], shown["status"]) == (True, "German")


# ------------------------------------------------------------------ ABtF Blocks


def test_controlling_every_strategic_location_switches_the_block(client: TestClient) -> None:
    """9.605: the German Controls both Strategic Locations of Block C."""
    game = abtf_game(client)
    control(game, "Ar", "German", locations=[{"hex": "B2", "side": "German"}])
    assert areas(game)["blocks"]["C"] == "British"  # one of two: the British keeps it
    seq = control(game, "Ar", "German", locations=[{"hex": "B3", "side": "German"}])["seq"]
    (group,) = ok(game.get("British", "/control"))["map_groups"]
    assert group["blocks"] == [{"block": "C", "side": "German", "seq": seq, "rule": "9.605"}]
    view = areas(game)
    assert view["blocks"]["C"] == "German"
    assert [hexes(view)[hx]["status"] for hx in ("B1", "B2", "B3")] == ["German"] * 3


def test_9_6051_records_a_blocks_control(client: TestClient) -> None:
    game = abtf_game(client)
    body = {
        "blocks": [{"block": "C", "side": "German"}],
        "locations": [{"hex": "A1", "side": None}],
    }
    seq = control(game, "Ar", "German", **body)["seq"]
    (group,) = ok(game.get("British", "/control"))["map_groups"]
    assert group["blocks"] == [{"block": "C", "side": "German", "seq": seq, "rule": "9.6051"}]
    assert areas(game)["blocks"]["C"] == "German"
    assert hexes(areas(game))["B1"]["status"] == "German"


def test_9_6051_alone_needs_no_location(client: TestClient) -> None:
    game = abtf_game(client)
    agree_control(game, "German", {"map_group": "Ar", "blocks": [{"block": "C", "side": "German"}]})
    assert areas(game)["blocks"]["C"] == "German"


def test_a_block_on_a_map_without_blocks_is_422(client: TestClient) -> None:
    game = kgp_game(client)
    before = game.version()
    body = {
        "map_group": "M",
        "locations": [{"hex": "A1", "side": "US"}],
        "blocks": [{"block": "C", "side": "US"}],
    }
    problem = assert_problem(game.post("US", "/control", body), 422)
    assert problem["field"] == "blocks[0].block"
    assert game.version() == before


@pytest.mark.parametrize(
    ("block", "field"),
    [
        ({"block": "C", "side": "Soviet"}, "blocks[0].side"),
        ({"block": "Q", "side": "German"}, "blocks[0].block"),
    ],
)
def test_a_bad_block_is_422(client: TestClient, block: dict[str, Any], field: str) -> None:
    game = abtf_game(client)
    before = game.version()
    body = {"map_group": "Ar", "locations": [{"hex": "A1", "side": None}], "blocks": [block]}
    problem = assert_problem(game.post("British", "/control", body), 422)
    assert problem["field"] == field
    assert game.version() == before


# ------------------------------------------------------------------ winners


def test_9_6212_the_german_holding_block_h_wins(client: TestClient) -> None:
    game = abtf_game(client)
    control(game, "Ar", "German", locations=[{"hex": "D2", "side": "German"}])
    for side in ABTF_SIDES:
        game.advance(side, "scenario")
    created(end(game))
    row = ok(game.get("British", "/lvp"))["rows"][-1]
    assert row["winner"] == "German"
    assert row["rule"].startswith("9.6212")


def test_9_6212_not_all_of_block_h_wins_nothing(client: TestClient) -> None:
    game = abtf_game(client)
    for side in ABTF_SIDES:
        game.advance(side, "scenario")
    created(end(game))
    row = ok(game.get("British", "/lvp"))["rows"][-1]
    assert row["winner"] is None
    assert row["rule"].startswith("9.6211")


def test_9_6211_an_abtf_scenario_has_no_stated_winner(client: TestClient) -> None:
    game = abtf_game(client)
    for side in ABTF_SIDES:
        game.advance(side, "scenario")
    before = game.version()
    problem = assert_problem(end(game, winner="British"), 409)
    assert problem["detail"].startswith("9.6211")
    assert game.version() == before


@pytest.mark.parametrize(("us", "german", "kind"), [
    ("attack", "idle", "us-assault"),
    ("idle", "attack", "german-assault"),
])  # fmt: skip
def test_kgp_a_winner_the_lvp_does_not_decide_is_stated(
    client: TestClient, us: str, german: str, kind: str
) -> None:
    game = kgp_game(client)
    game.end_scenario()
    play(game, us, german)
    assert ok(game.get("referee", "/reph"))["scenario"]["type"] == kind
    created(end(game, winner="German"))
    row = ok(game.get("US", "/lvp"))["rows"][-1]
    assert (row["scenario"], row["winner"]) == (kind, "German")
    assert row["rule"].startswith("8.6234b")
    assert "stated" in row["rule"]


def test_kgp_a_winner_the_lvp_decides_is_not_overruled(client: TestClient) -> None:
    """8.6234b: the U.S. takes E3 (5 -> 10 LVP, >= 20% more): it wins."""
    game = kgp_game(client)
    game.end_scenario()
    play(game, "attack", "idle")
    control(game, "M", locations=[{"hex": "E3", "side": "US"}])
    before = game.version()
    problem = assert_problem(end(game, winner="German"), 409)
    assert problem["detail"].startswith("8.6234b")
    assert game.version() == before
    created(end(game))
    row = ok(game.get("US", "/lvp"))["rows"][-1]
    assert (row["winner"], row["rule"]) == ("US", "8.6234b")


def test_kgp_dual_attack_8_6234a_decides(client: TestClient) -> None:
    """8.6234a: the U.S. did not gain LVP in the Dual Attack: the German wins;
    a stated U.S. win is refused, a stated German win is the rules' own."""
    game = kgp_game(client)
    game.end_scenario()
    play(game, "attack", "attack")
    assert ok(game.get("referee", "/reph"))["scenario"]["type"] == "dual-attack"
    before = game.version()
    problem = assert_problem(end(game, winner="US"), 409)
    assert problem["detail"].startswith("8.6234a")
    assert game.version() == before
    created(end(game, winner="German"))
    row = ok(game.get("US", "/lvp"))["rows"][-1]
    assert (row["scenario"], row["winner"], row["rule"]) == ("dual-attack", "German", "8.6234a")


def test_a_stated_winner_must_be_a_side(client: TestClient) -> None:
    game = kgp_game(client)
    for side in KGP_SIDES:
        game.advance(side, "scenario")
    before = game.version()
    problem = assert_problem(end(game, winner="Soviet"), 422)
    assert problem["field"] == "winner"
    assert game.version() == before


# ------------------------------------------------------------------ the SVG map


def _svg(r: Any) -> ET.Element:
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].split(";")[0] == "image/svg+xml"
    return ET.fromstring(r.content)


def _drawn(root: ET.Element) -> list[str]:
    return [el.attrib["data-hex"] for el in root.iter() if "data-hex" in el.attrib]


@pytest.mark.parametrize("role", ["US", "German", "referee"])
def test_the_svg_map_draws_every_hex_once(client: TestClient, role: str) -> None:
    game = kgp_game(client)
    root = _svg(game.get(role, "/setup-areas.svg"))
    assert root.tag.endswith("svg")
    drawn = _drawn(root)
    assert sorted(drawn) == sorted(KGP_HEXES)


def test_the_svg_map_as_of_an_event(client: TestClient) -> None:
    game = kgp_game(client)
    before = game.version()
    control(game, "M", "US", locations=[{"hex": "E3", "side": "US"}])
    now = game.get("German", "/setup-areas.svg")
    then = game.get("German", f"/setup-areas.svg?at={before}")
    assert sorted(_drawn(_svg(then))) == sorted(KGP_HEXES)
    assert then.content != now.content
    assert then.content == game.get("US", f"/setup-areas.svg?at={before}").content


def test_the_abtf_svg_map(client: TestClient) -> None:
    game = abtf_game(client)
    assert sorted(_drawn(_svg(game.get("British", "/setup-areas.svg")))) == sorted(ABTF_HEXES)


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("location", "field"),
    [
        ({"hex": "Z9", "side": "US"}, "locations[0].hex"),
        ({"hex": "A1", "side": "Soviet"}, "locations[0].side"),
        ({"hex": "A1", "level": 1, "side": "US"}, "locations[0].level"),
        ({"hex": "B2", "level": 2, "side": "US"}, "locations[0].level"),
    ],
)
def test_a_bad_location_is_422_and_appends_nothing(
    client: TestClient, location: dict[str, Any], field: str
) -> None:
    game = kgp_game(client)
    before = game.version()
    problem = assert_problem(
        game.post("US", "/control", {"map_group": "M", "locations": [location]}), 422
    )
    assert problem["field"] == field
    assert game.version() == before
    assert locations(game) == locations(game, f"?at={before}")


def test_a_bad_marker_is_422_naming_it(client: TestClient) -> None:
    game = kgp_game(client)
    before = game.version()
    body = {"map_group": "M", "locations": [{"hex": "C5", "side": "US", "marker": "X"}]}
    problem = assert_problem(game.post("US", "/control", body), 422)
    assert problem["field"].startswith("locations")
    assert problem["field"].endswith("marker")
    assert game.version() == before


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        (b'{"map_group": "M", "locations": [{"hex": "A\xff1", "side": "US"}]}', None),
        (b'{"map_group": "M\xc3", "locations": [{"hex": "A1", "side": "US"}]}', None),
        # A surrogate encoded as UTF-8 (CESU) is not UTF-8: the parser refuses the
        # body; a lone one escaped in JSON is valid JSON, refused by its field.
        (b'{"map_group": "M", "locations": [{"hex": "A1\xed\xa0\x80", "side": "US"}]}', "body"),
        (b'{"map_group": "M", "locations": [{"hex": "\\ud800", "side": "US"}]}', "hex"),
        (b'{"map_group": "M", "locations": [{"hex": "A1", "side": "\\udfff"}]}', "side"),
    ],
)
def test_text_that_is_not_unicode_is_refused(
    client: TestClient, raw: bytes, field: str | None
) -> None:
    game = kgp_game(client)
    before = game.version()
    r = client.post(
        f"{game.url}/control",
        content=raw,
        headers=game.h("US", **{"Content-Type": "application/json"}),
    )
    assert 400 <= r.status_code < 500, (r.status_code, r.text)
    if field is not None:
        assert assert_problem(r, 422)["field"].endswith(field)
    assert game.version() == before


@pytest.mark.parametrize("path", ["/setup-areas", "/setup-areas.svg", "/control"])
def test_a_map_group_query_that_is_not_unicode_is_refused(client: TestClient, path: str) -> None:
    game = kgp_game(client)
    r = game.get("US", f"{path}?map_group=%FF%ED%A0%80")
    assert 400 <= r.status_code < 500, (r.status_code, r.text)


def test_a_block_alone_on_a_map_without_blocks_names_the_block(client: TestClient) -> None:
    game = kgp_game(client)
    before = game.version()
    body = {"map_group": "M", "blocks": [{"block": "C", "side": "US"}]}
    problem = assert_problem(game.post("US", "/control", body), 422)
    assert problem["field"] == "blocks[0].block", problem
    assert game.version() == before
