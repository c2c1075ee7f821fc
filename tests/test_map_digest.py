"""The map digest of ``GET /page`` (DESIGN §12 "Cost"), computed from what the
Setup Areas map is drawn from (``cgledger.projections.map_digest``), not from
the drawing: the same for a role exactly when its map is the same, over a
campaign that changes its maps in every way; the same for the opponent
whether or not a hidden Fortification exists (DESIGN §4); and a map whose
digest the page holds is not drawn at all."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from conftest import US_TAKES_SX, Game, created, ok
from fastapi.testclient import TestClient
from test_map_view import _svg_of, _unit_setup

import cgledger.service.territory

pytestmark = pytest.mark.shared_app

ROLES = ("US", "German", "referee")


def _page_maps(game: Game) -> dict[str, tuple[str, str]]:
    """Each role's ``GET /page`` map of Sx: (digest, SVG)."""
    out = {}
    for role in ROLES:
        drawn = ok(game.get(role, "/page?map_group=Sx&log_after=0"))["map"]
        assert drawn["svg"] == _svg_of(game, role)
        out[role] = (drawn["digest"], drawn["svg"])
    return out


def _hidden_fort(game: Game) -> None:
    view = ok(game.get("German", "/setup-areas?map_group=Sx"))
    hx = next(h for a in view["areas"] if a["side"] == "German" for h in a["hexes"])
    body = {"map_group": "Sx", "items": [{"type": "dummy", "hex": hx}]}
    created(game.post("German", "/fortification-setups", body))


def _scenario_end(game: Game) -> None:
    # The U.S. takes every German Strategic Location of Sx at scenario end.
    game.end_scenario_agreed([US_TAKES_SX])


#: A U.S. Control proposal on Sx.
CHANGE = {"map_group": "Sx", "locations": [{"hex": "C1", "side": "German"}]}


def _amend_hex(game: Game, group: str, hx: str, **fields: Any) -> None:
    """The referee amends the CG definition: ``fields`` of hex ``hx`` of ``group`` (DESIGN §7)."""
    groups = ok(game.get("referee", "/definition"))["definition"]["map_groups"]
    for g in groups:
        if g["id"] == group:
            g["hexes"] = [{**h, **fields} if h["hex"] == hx else h for h in g["hexes"]]
    body = {"patch": {"map_groups": groups}, "reason": "read off the map again"}
    assert created(game.post("referee", "/definition-amendments", body))["status"] == "applied"


def _agree(game: Game, locations: list[dict[str, Any]]) -> None:
    """Control of ``locations`` on Sx, proposed by the U.S. and approved."""
    seq = created(game.post("US", "/control", {"map_group": "Sx", "locations": locations}))["seq"]
    ok(game.post("German", f"/proposals/{seq}/approve", {}))


def test_the_page_map_digest_changes_exactly_when_the_map_does(client: TestClient) -> None:
    """DESIGN §12 "Cost": the page's map digest, computed from what the map is
    drawn from, is the same for a role exactly when its map is the same, byte
    for byte, over a campaign that changes its maps in every way: Control
    proposed (nothing) and approved, of the ground or of an upper level alone,
    a new CG Date, the Setup Areas frozen (later Control shows, but they keep
    theirs), a hidden Fortification (its owner's and the referee's maps only),
    the next scenario (thawed), Control at its end, 8.6073 (every map), and
    the CG definition amended (a hex no longer Enterable)."""
    game = _unit_setup(client)
    seen = [_page_maps(game)]
    steps = [
        lambda: created(game.post("US", "/rolls", {"dice": 2, "purpose": "nothing"})),
        lambda: _hidden_fort(game),
        lambda: _scenario_end(game),
        # An upper level alone, before the Setup Areas are frozen: not the
        # ground's Control in force, only what the Setup Areas are made of.
        lambda: _agree(game, [{"hex": "C3", "level": 2, "side": "German"}]),
        lambda: game.advance("US", "8.606"),
        lambda: created(game.post("US", "/hidden-fortifications", {"map_group": "Sx"})),
        game.next_date,
        lambda: game.advance("US", "8.606"),
        lambda: created(game.post("US", "/control", CHANGE)),
        lambda: ok(game.post("German", f"/proposals/{game.version()}/approve", {})),
        lambda: _amend_hex(game, "Sx", "C4", enterable=False),
    ]
    for step in steps:
        step()
        seen.append(_page_maps(game))
    for role in ROLES:
        maps = [state[role] for state in seen]
        for (d1, svg1), (d2, svg2) in itertools.combinations(maps, 2):
            assert (d1 == d2) == (svg1 == svg2), role
        changed = [a[1] != b[1] for a, b in itertools.pairwise(maps)]
        assert any(changed), role
        assert not all(changed), role
    # Some step changed one role's map and not another's (the hidden Fortification).
    assert any(
        len({a[role][1] != b[role][1] for role in ROLES}) == 2 for a, b in itertools.pairwise(seen)
    )
    digests = [state[role][0] for state in seen for role in ROLES]
    assert all(re.fullmatch(r"[0-9a-f]{32}", d) for d in digests)


def test_the_opponents_page_map_digest_is_the_same_with_or_without_a_hidden_fortification(
    client: TestClient,
) -> None:
    """DESIGN §4: twin campaigns where the German sets up a hidden Fortification
    in one and nothing in the other give the U.S. the same map digest (and
    map); the German and the referee, who see it, get another digest."""
    placed, empty = _unit_setup(client), _unit_setup(client)
    before = _page_maps(placed), _page_maps(empty)
    assert before[0] == before[1]
    _hidden_fort(placed)
    created(empty.post("German", "/fortification-setups", {"map_group": "Sx"}))
    after = _page_maps(placed), _page_maps(empty)
    assert after[0]["US"] == after[1]["US"] == before[0]["US"]
    for role in ("German", "referee"):
        assert after[0][role][0] != after[1][role][0], role
        assert after[1][role] == before[1][role], role


def test_a_map_whose_digest_the_page_holds_is_not_drawn(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page's redraw after an event that leaves the map as it was (a roll,
    a pending proposal) draws no map; Control agreed draws it again."""
    drawn: list[str] = []
    draw = cgledger.service.territory.render_svg

    def counted(*args: Any, **kwargs: Any) -> str:
        drawn.append(kwargs["title"])
        return draw(*args, **kwargs)

    monkeypatch.setattr(cgledger.service.territory, "render_svg", counted)
    game = _unit_setup(client)
    first = ok(game.get("US", "/page?map_group=Sx"))["map"]
    assert first["svg"]
    assert len(drawn) == 1
    created(game.post("US", "/rolls", {"dice": 2, "purpose": "nothing"}))
    take = {"map_group": "Sx", "locations": [{"hex": "C1", "side": "US"}]}
    seq = created(game.post("US", "/control", take))["seq"]
    again = ok(game.get("US", f"/page?map_group=Sx&map_digest={first['digest']}"))["map"]
    assert again == {**first, "svg": None}
    assert len(drawn) == 1
    ok(game.post("German", f"/proposals/{seq}/approve", {}))
    changed = ok(game.get("US", f"/page?map_group=Sx&map_digest={first['digest']}"))["map"]
    assert changed["digest"] != first["digest"]
    assert changed["svg"] == _svg_of(game, "US")
    assert len(drawn) == 3  # the page's, then GET /setup-areas.svg's
