"""The Setup Areas map and the charts as a player reads them (DESIGN §12, §9):
who Controls each Location (in force only, DESIGN §13), Fortifications only
where the viewer may see them (DESIGN §4), the legend in its own region; in
chromium, zoom and pan that survive the live redraw and make hex ids of the
1,200-hex sample legible; charts with round ticks, labels that fit and sides
told apart by more than colour."""

from __future__ import annotations

import copy
import itertools
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
import test_browser
from conftest import US_TAKES_SX, Game, created, ok
from fastapi.testclient import TestClient
from test_browser import Remote, open_page
from test_setup_map_svg import NS, SIDES, _answer, _coords, _hexes

from cgledger.projections.setup_map import render_svg
from cgledger.projections.setup_map.marks import side_tags

pytestmark = pytest.mark.shared_app

# The browser tests' fixtures: chromium, a live server, a campaign over HTTP.
browser = test_browser.browser
browser_context = test_browser.browser_context
server = test_browser.server
remote = test_browser.remote

KGP = {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": 40, "US": 10}}


def _svg(answer: dict[str, Any] | None = None, **more: Any) -> ET.Element:
    answer = _answer() if answer is None else answer
    return ET.fromstring(render_svg(answer, _coords(answer), SIDES, title="Stoumont", **more))


def _classes(el: ET.Element) -> list[str]:
    return (el.get("class") or "").split()


def _marks(group: ET.Element, cls: str) -> list[ET.Element]:
    return [el for el in group.iter() if cls in _classes(el)]


def _box(el: ET.Element) -> tuple[float, float, float, float]:
    x, y, w, h = (float(v) for v in (el.get("data-box") or "").split())
    return x, y, w, h


def _legend_kinds(root: ET.Element) -> dict[str, list[ET.Element]]:
    kinds: dict[str, list[ET.Element]] = {}
    for g in root.iter(f"{NS}g"):
        for c in _classes(g):
            if c.startswith("legend-") and c != "legend-item":
                kinds.setdefault(c.removeprefix("legend-"), []).append(g)
    return kinds


# ------------------------------------------------------------------ Control


def test_each_hex_says_who_controls_it_by_a_tag_not_by_colour_alone() -> None:
    """The tester's case: C4-like hex J20 is in the U.S. Setup Area but
    Controlled by the German. It carries the German tag, a hatch in the
    German's colour and a tooltip that says why it is still U.S. Setup Area."""
    answer = _answer()
    answer["step"] = "8.605"
    control = {"J19": "US", "J20": "German", "J21": "US", "K23": "US", "H20": "German"}
    drawn = _hexes(_svg(answer, control=control))
    tags = {}
    for hx, group in drawn.items():
        marks = _marks(group, "control-mark")
        assert group.get("data-control") == control.get(hx, "")
        assert len(marks) == (1 if hx in control else 0), hx
        if marks:
            assert marks[0].get("data-side") == control[hx]
            tags[hx] = marks[0].findtext(f"{NS}text")
    # The tag is the side's name, shortened: readable without colour.
    assert tags == {"J19": "US", "J20": "Ger", "J21": "US", "K23": "US", "H20": "Ger"}
    # Only where Control differs from the Setup Area's side: the hatch and dashed outline.
    other = {hx for hx, g in drawn.items() if _marks(g, "control-outline")}
    assert other == {"J20"}
    (outline,) = _marks(drawn["J20"], "control-outline")
    assert (outline.get("fill") or "").startswith("url(#cgl-ctl-")
    assert outline.get("stroke-dasharray")
    assert "control-other" in _classes(drawn["J20"])
    tip = drawn["J20"].findtext(f"{NS}title")
    assert tip == (
        "J20 - US Setup Area A - Controlled by German (A26.11), yet in the US Setup Area by 8.605"
    )
    assert drawn["I20"].findtext(f"{NS}title") == "I20 - No Man's Land - not Controlled"


def test_control_is_the_answers_without_control_in_force() -> None:
    drawn = _hexes(_svg())
    assert {hx for hx, g in drawn.items() if _marks(g, "control-mark")} == {
        "J19", "J21", "K23", "H20",
    }  # fmt: skip


def test_a_frozen_map_says_who_controlled_when_the_setup_areas_were_determined() -> None:
    answer = _answer()
    answer["frozen"] = True
    control = {"J19": "German", "J21": "US", "K23": "US", "H20": "German"}
    tip = _hexes(_svg(answer, control=control))["J19"].findtext(f"{NS}title") or ""
    assert "Controlled by German (A26.11; US when the Setup Areas were determined)" in tip


@pytest.mark.parametrize(
    ("sides", "tags"),
    [
        (["US", "German"], {"US": "US", "German": "Ger"}),
        (["British", "German"], {"British": "Bri", "German": "Ger"}),
        (["German", "Germany"], {"German": "German", "Germany": "Germany"}),
        (["Gerd", "Germans", "X"], {"Gerd": "Gerd", "Germans": "Germ", "X": "X"}),
    ],
)
def test_side_tags_are_short_and_tell_every_side_apart(
    sides: list[str], tags: dict[str, str]
) -> None:
    assert side_tags(sides) == tags


# ------------------------------------------------------------------ Fortifications

FORTS = {
    "rules": {"set_up": "8.624", "on_map": "8.6073"},
    "items": [
        {"side": "German", "hex": "H19", "level": 0, "type": "dummy", "count": 1,
         "shown": False, "rule": "8.624"},
        {"side": "German", "hex": "J20", "level": 0, "type": "minefield", "count": None,
         "shown": True, "rule": "8.6073"},
    ],
}  # fmt: skip


def test_fortifications_are_marked_by_shape_and_listed_in_the_tooltip() -> None:
    root = _svg(fortifications=FORTS)
    drawn = _hexes(root)
    marked = {hx: _marks(g, "fort-mark") for hx, g in drawn.items() if _marks(g, "fort-mark")}
    assert set(marked) == {"H19", "J20"}
    assert marked["H19"][0].get("data-shown") == "false"
    assert marked["J20"][0].get("data-shown") == "true"
    hidden = marked["H19"][0].find(f"{NS}polygon")
    shown = marked["J20"][0].find(f"{NS}polygon")
    assert hidden is not None
    assert shown is not None
    assert hidden.get("stroke-dasharray")  # hollow and dashed: set up in secret
    assert shown.get("stroke-dasharray") is None  # solid: placed on-map
    assert "German Fortification set up in secret (8.624): 1 dummy" in (
        drawn["H19"].findtext(f"{NS}title") or ""
    )
    assert "German Fortification placed on-map (8.6073): minefield" in (
        drawn["J20"].findtext(f"{NS}title") or ""
    )


def test_the_fortification_legend_does_not_depend_on_what_the_viewer_is_given() -> None:
    """The legend shows both kinds whenever the ruleset keeps Fortifications,
    so that it tells the opponent nothing; none where it keeps none."""
    given = _legend_kinds(_svg(fortifications=FORTS))
    empty = _legend_kinds(_svg(fortifications={"rules": FORTS["rules"], "items": []}))
    assert set(given) == set(empty)
    assert {"fort-hidden", "fort-shown"} <= set(given)
    texts = {"".join(g.itertext()) for k in ("fort-hidden", "fort-shown") for g in given[k]}
    assert texts == {"Set up in secret (8.624)", "Placed on-map (8.6073)"}
    assert not {"fort-hidden", "fort-shown"} & set(_legend_kinds(_svg()))
    answer = _answer()
    same = render_svg(answer, _coords(answer), SIDES, title="t", fortifications=FORTS)
    other = copy.deepcopy(FORTS)
    other["items"] = []
    assert render_svg(answer, _coords(answer), SIDES, title="t", fortifications=other) != same


# ------------------------------------------------------------------ the legend


def test_the_legend_has_its_own_region_below_the_map_and_explains_every_mark() -> None:
    root = _svg(control={"J20": "German", "J19": "US"}, fortifications=FORTS)
    (area,) = [g for g in root.iter(f"{NS}g") if "map-area" in _classes(g)]
    (legend,) = [g for g in root.iter(f"{NS}g") if _classes(g) == ["legend"]]
    ax, ay, aw, ah = _box(area)
    lx, ly, lw, lh = _box(legend)
    assert ly > ay + ah  # below the map, not over it
    view = [float(v) for v in (root.get("viewBox") or "").split()]
    assert lx >= 0
    assert ly + lh <= view[3]
    assert lx + lw <= view[2]
    # Every hex lies inside the map's region; no legend entry does.
    for group in _hexes(root).values():
        cell = next(p for p in group.iter(f"{NS}polygon") if p.get("class") == "cell")
        for pair in (cell.get("points") or "").split():
            x, y = (float(v) for v in pair.split(","))
            assert ax <= x <= ax + aw
            assert ay <= y <= ay + ah
    assert not [g for g in area.iter(f"{NS}g") if "legend-item" in _classes(g)]
    kinds = _legend_kinds(legend)
    expected = {
        "side", "nml", "uncontrolled", "blocked", "control", "control-other", "strategic",
        "level", "isolated", "marker", "fort-hidden", "fort-shown",
    }  # fmt: skip
    assert expected <= set(kinds)
    assert {g.get("data-side") for g in kinds["control"]} == {"US", "German"}
    assert {g.findtext(f"{NS}g/{NS}text") for g in kinds["control"]} == {"US", "Ger"}
    headings = [t.text or "" for t in legend.iter(f"{NS}text") if "legend-heading" in _classes(t)]
    assert headings[0].startswith("Fill: Setup Areas")
    assert any("Control in force (A26.11)" in h and "pending" in h for h in headings)
    for item in (g for gs in kinds.values() for g in gs):
        assert "".join(item.itertext()).strip()  # each entry says what it means


# ------------------------------------------------------------------ over the API


def _svg_of(game: Game, role: str, group: str = "Sx") -> str:
    r = game.get(role, f"/setup-areas.svg?map_group={group}")
    assert r.status_code == 200, r.text
    text: str = r.text
    return text


def _control_of(svg: str) -> dict[str, str]:
    return dict(re.findall(r'data-hex="([^"]+)"[^>]*? data-control="([^"]*)"', svg))


def test_the_map_shows_control_in_force_and_a_pending_proposal_changes_nothing(
    client: TestClient,
) -> None:
    game = Game(client, KGP)
    before = {role: _svg_of(game, role) for role in ("US", "German", "referee")}
    assert _control_of(before["US"])["C1"] == "German"
    proposal = created(
        game.post("US", "/control", {"map_group": "Sx", "locations": [{"hex": "C1", "side": "US"}]})
    )
    assert proposal["status"] == "pending"
    for role, svg in before.items():
        assert _svg_of(game, role) == svg  # pending: nothing changed, byte for byte
    ok(game.post("German", f"/proposals/{proposal['seq']}/approve", {}))
    for role in before:
        assert _control_of(_svg_of(game, role))["C1"] == "US"


def _unit_setup(client: TestClient) -> Game:
    """A KGP campaign (titled, so that both twins draw the same title) whose
    German bought Fortifications in 8.621 and stands at 8.624 of 19 PM."""
    game = Game(client, {**KGP, "title": "twin"})
    created(game.post("German", "/rg-purchases", {"rg": "F1", "map_group": "Sx"}))
    game.advance("German", "8.621")
    created(
        game.post("German", "/fortification-purchases", {"items": [{"type": "dummy", "count": 1}]})
    )
    game.end_scenario()
    game.next_date()
    for side in ("US", "German"):
        game.advance(side, "8.623")
    game.choose_chits("attack")
    for side in ("US", "German"):
        game.advance(side, "8.624")
    return game


def test_a_hidden_fortification_is_on_its_owners_map_and_nowhere_else(
    client: TestClient,
) -> None:
    """DESIGN §4: the German's hidden Fortification is on the German's and the
    referee's maps; the U.S. map is the same, byte for byte, as in the twin
    campaign where the German set up nothing."""
    placed, empty = _unit_setup(client), _unit_setup(client)
    view = ok(placed.get("German", "/setup-areas?map_group=Sx"))
    hx = next(h for a in view["areas"] if a["side"] == "German" for h in a["hexes"])
    body = {"map_group": "Sx", "items": [{"type": "dummy", "hex": hx}]}
    created(placed.post("German", "/fortification-setups", body))
    created(empty.post("German", "/fortification-setups", {"map_group": "Sx"}))
    for role in ("German", "referee"):
        drawn = _hexes(ET.fromstring(_svg_of(placed, role)))
        marked = {h for h, g in drawn.items() if _marks(g, "fort-mark")}
        assert marked == {hx}, role
        (mark,) = _marks(drawn[hx], "fort-mark")
        assert mark.get("data-shown") == "false"
        assert "Fortification set up in secret" in (drawn[hx].findtext(f"{NS}title") or "")
        assert not [
            g for g in ET.fromstring(_svg_of(empty, role)).iter() if "fort-mark" in _classes(g)
        ]
    theirs = _svg_of(placed, "US")
    assert theirs == _svg_of(empty, "US")
    assert "fort-mark" not in theirs
    assert "dummy" not in theirs
    # The legend still names both kinds for the U.S.: it says nothing either way.
    assert {"fort-hidden", "fort-shown"} <= set(_legend_kinds(ET.fromstring(theirs)))


# ------------------------------------------------------------------ in chromium

VIEW = "#map .map-view"
SVG = "#map svg.setup-map"


def _map(page: Any, group: str) -> None:
    page.select_option("#map-group", group)
    page.wait_for_selector(f"{SVG}[data-map-group={group}]")


def _zoom(page: Any) -> float:
    return float(page.get_attribute(VIEW, "data-zoom") or 0)


def _viewbox(page: Any) -> list[float]:
    return [float(v) for v in (page.get_attribute(SVG, "viewBox") or "").split()]


def _hex_id_height(page: Any) -> float:
    """The CSS height of a hex id's text as chromium draws it now."""
    height: float = page.evaluate(
        "() => document.querySelector('#map svg.setup-map text.hex-id')"
        ".getBoundingClientRect().height"
    )
    return height


def test_the_1200_hex_map_zooms_and_pans_until_hex_ids_are_legible(
    browser_context: Any, remote: Remote
) -> None:
    page = open_page(browser_context, remote.link("US"))
    page.set_viewport_size({"width": 1280, "height": 800})
    _map(page, "Sy")
    assert page.locator(f"{SVG} g[data-hex]").count() == 1200
    # The controls are labelled.
    labels = page.eval_on_selector_all(
        "#map .map-tools button", "bs => bs.map(b => b.getAttribute('aria-label'))"
    )
    assert labels == ["zoom in", "zoom out", "fit the whole map"]
    assert page.get_attribute("#map .map-viewport", "aria-label")
    # The whole map at first: its ids are too small to read; zoomed all the way, they are not.
    assert _zoom(page) == 1
    assert _hex_id_height(page) < 10
    whole = _viewbox(page)
    while page.is_enabled("#map button.zoom-in"):
        page.click("#map button.zoom-in")
    assert _zoom(page) > 1
    assert _hex_id_height(page) >= 10
    zoomed = _viewbox(page)
    assert zoomed[2] < whole[2] / 2
    # Drag to pan: the view moves the other way.
    box = page.locator("#map .map-viewport").bounding_box()
    assert box is not None
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx - 120, cy - 60, steps=4)
    page.mouse.up()
    panned = _viewbox(page)
    assert panned[0] > zoomed[0]
    assert panned[1] > zoomed[1]
    assert panned[2:] == zoomed[2:]
    # The keyboard, with the map focused: arrows pan, - zooms out, 0 fits.
    page.focus("#map .map-viewport")
    page.keyboard.press("ArrowLeft")
    assert _viewbox(page)[0] < panned[0]
    most = _zoom(page)
    page.keyboard.press("-")
    assert 1 < _zoom(page) < most
    assert _viewbox(page)[2] > zoomed[2]
    page.keyboard.press("0")
    assert _zoom(page) == 1
    page.keyboard.press("+")
    assert _zoom(page) > 1
    page.keyboard.press("0")
    # The wheel zooms at the pointer: the hex under it stays there, even near an edge.
    page.locator("#map .map-viewport").scroll_into_view_if_needed()
    cell = page.locator(f"{SVG} g[data-hex=E24] polygon.cell").bounding_box()
    assert cell is not None
    at = [cell["x"] + cell["width"] / 2, cell["y"] + cell["height"] / 2]
    page.mouse.move(*at)
    page.mouse.wheel(0, -400)
    page.wait_for_function("sel => Number(document.querySelector(sel).dataset.zoom) > 1", arg=VIEW)
    under = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('g[data-hex]')?.dataset.hex", at
    )
    assert under == "E24"
    # The legend and the title are outside the zoomed map, below and above it.
    assert page.locator(f"{SVG} g.legend").count() == 0
    legend = page.locator("#map .map-key svg.map-legend g.legend").bounding_box()
    viewport = page.locator("#map .map-viewport").bounding_box()
    assert legend is not None
    assert viewport is not None
    assert legend["y"] >= viewport["y"] + viewport["height"]
    assert "CG Date" in page.inner_text("#map .map-caption")
    assert page.errors == []
    page.close()


def test_the_zoom_survives_the_live_redraw(browser_context: Any, remote: Remote) -> None:
    page = open_page(browser_context, remote.link("German"))
    page.set_viewport_size({"width": 1280, "height": 800})
    _map(page, "Sy")
    page.click("#map button.zoom-in")
    page.click("#map button.zoom-in")
    page.focus("#map .map-viewport")
    page.keyboard.press("ArrowDown")
    zoom, view = _zoom(page), _viewbox(page)
    page.evaluate("() => { window.drawnBefore = document.querySelector('#map svg.setup-map'); }")
    hexes = ok_svg_hexes(remote)
    change = {"map_group": "Sy", "locations": [{"hex": hexes, "side": "German"}]}
    remote.post("referee", "/control", change)
    page.wait_for_selector(f"{SVG} g[data-hex='{hexes}'][data-control=German]", timeout=20_000)
    assert page.evaluate(
        "() => document.querySelector('#map svg.setup-map') !== window.drawnBefore"
    )
    assert _zoom(page) == zoom
    assert _viewbox(page) == view
    # Another map group starts whole; coming back finds the zoom as it was left.
    _map(page, "Sx")
    assert _zoom(page) == 1
    _map(page, "Sy")
    assert _zoom(page) == zoom
    assert page.errors == []
    page.close()


def ok_svg_hexes(remote: Remote) -> str:
    """A U.S. Setup-Area hex of Sy that no side Controls."""
    view = remote.get("referee", "/setup-areas?map_group=Sy")
    return str(
        next(h["hex"] for h in view["hexes"] if h["status"] == "US" and h["controlled_by"] is None)
    )


CHARTS = """async ({rows, sides, stats, width}) => {
    const c = await import('/ui/charts.js');
    const out = {};
    const inside = (svg) => {
        const frame = svg.getBoundingClientRect();
        return [...svg.querySelectorAll('text')].filter((t) => t.textContent).map((t) => {
            const r = t.getBoundingClientRect();
            return {text: t.textContent, fits: r.left >= frame.left - 0.5
                && r.right <= frame.right + 0.5 && r.top >= frame.top - 0.5
                && r.bottom <= frame.bottom + 0.5};
        });
    };
    const holder = document.createElement('div');
    holder.style.width = width + 'px';
    document.body.append(holder);
    const lvp = c.lvpChart(rows, sides);
    const dice = c.diceChart(stats);
    holder.append(lvp, dice);
    out.lvp = inside(lvp);
    out.dice = inside(dice);
    const texts = (svg, sel) => [...svg.querySelectorAll(sel)].map((t) => t.textContent);
    out.lvpTicks = texts(lvp, 'text.tick[text-anchor=end]');
    out.diceTicks = texts(dice, 'text.tick[text-anchor=end]');
    out.axisLabels = [...texts(lvp, '.axis-label'), ...texts(dice, '.axis-label')];
    out.shapes = sides.map((sd) => [
        ...new Set([...lvp.querySelectorAll(`.point[data-side="${sd}"]`)].map((p) => p.tagName)),
    ]);
    out.dashes = sides.map((sd) => lvp.querySelector(`polyline[data-side="${sd}"]`)
        ?.getAttribute('stroke-dasharray') || 'solid');
    out.legend = [...lvp.querySelectorAll('.legend-item')].map((g) => g.textContent);
    out.diceLegend = [...dice.querySelectorAll('.legend-item')].map((g) => g.textContent);
    holder.remove();
    return out;
}"""


def _is_round(step: float) -> bool:
    mantissa = step / 10 ** int(f"{step:e}".split("e")[1])
    return any(abs(mantissa - m) < 1e-9 for m in (1, 2, 5))


@pytest.mark.parametrize("width", [480, 320])
def test_the_charts_have_round_ticks_labels_that_fit_and_sides_by_shape(
    browser_context: Any, server: str, width: int
) -> None:
    page = open_page(browser_context, server + "/")
    dates = ["18 AM", "18 PM", "19 AM", "19 PM", "19 PI"]
    rows = [
        {"cg_date": d, "cg_lvp": {"US": 20 + 7 * i, "German": 151 - 9 * i}}
        for i, d in enumerate(dates)
    ]
    counts = [0, 1, 2, 1, 2, 2, 1, 0, 1, 0, 0]
    ways = [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
    stats = {
        "totals": {str(t): n for t, n in zip(range(2, 13), counts, strict=True)},
        "expected_per_cell": {str(t): 10 * w / 36 for t, w in zip(range(2, 13), ways, strict=True)},
    }
    got = page.evaluate(
        CHARTS, {"rows": rows, "sides": ["US", "German"], "stats": stats, "width": width}
    )
    for chart in ("lvp", "dice"):
        cut = [t["text"] for t in got[chart] if not t["fits"]]
        assert not cut, f"{chart}: labels cut at {width}px: {cut}"
    assert "19 PI" in [t["text"] for t in got["lvp"]]
    for ticks in (got["lvpTicks"], got["diceTicks"]):
        values = [float(v) for v in ticks]
        steps = {round(b - a, 9) for a, b in itertools.pairwise(values)}
        assert len(steps) == 1, ticks
        assert _is_round(steps.pop()), ticks
        assert values[0] == 0
    assert float(got["lvpTicks"][-1]) >= 151
    assert float(got["diceTicks"][-1]) >= 2
    assert got["axisLabels"] == [
        "CG-LVP Total (8.6033)",
        "CG Date",
        "rolls (count)",
        "DR total (2d6)",
    ]
    # Each side its own marker shape and dash, and a legend entry.
    assert got["shapes"][0] != got["shapes"][1]
    assert all(len(s) == 1 for s in got["shapes"])
    assert got["dashes"][0] != got["dashes"][1]
    assert got["legend"] == ["US", "German"]
    assert got["diceLegend"] == ["rolled", "fair 2d6 (expected)"]
    assert page.errors == []
    page.close()


def test_nice_ticks_are_1_2_or_5_times_a_power_of_ten(browser_context: Any, server: str) -> None:
    page = open_page(browser_context, server + "/")
    cases: list[list[float]] = [
        [0, 151],
        [0, 10],
        [0, 2],
        [0, 0.37],
        [-40, 260],
        [3, 3],
        [0, 1234567],
        [0, 7.5],
    ]
    got = page.evaluate(
        """async (cases) => {
            const c = await import('/ui/charts.js');
            const counts = {integer: true};
            const both = ([lo, hi]) => [c.niceTicks(lo, hi), c.niceTicks(lo, hi, 5, counts)];
            return cases.map(both);
        }""",
        cases,
    )
    for (lo, hi), results in zip(cases, got, strict=True):
        for found in results:
            step, ticks = found["step"], found["ticks"]
            assert _is_round(step), (lo, hi, found)
            assert ticks[0] <= lo
            assert ticks[-1] >= hi
            assert 2 <= len(ticks) <= 12, (lo, hi, found)
            for v in ticks:
                assert abs(v / step - round(v / step)) < 1e-9, (lo, hi, found)
    assert got[0][0]["ticks"] == [0, 50, 100, 150, 200]
    assert got[3][1]["step"] == 1  # counts: never a step below one
    page.close()


def test_a_fortification_placed_on_map_by_8_6073_is_on_every_map(client: TestClient) -> None:
    """8.6073: once the U.S. takes the German's Setup Area, the hidden
    Fortification is placed on-map: public, drawn solid on every role's map."""
    game = _unit_setup(client)
    view = ok(game.get("German", "/setup-areas?map_group=Sx"))
    hx = next(h for a in view["areas"] if a["side"] == "German" for h in a["hexes"])
    body = {"map_group": "Sx", "items": [{"type": "dummy", "hex": hx}]}
    created(game.post("German", "/fortification-setups", body))
    # The U.S. takes every German Strategic Location of Sx at scenario end.
    game.end_scenario_agreed([US_TAKES_SX])
    game.advance("US", "8.606")
    assert "fort-mark" not in _svg_of(game, "US")
    created(game.post("US", "/hidden-fortifications", {"map_group": "Sx"}))
    for role in ("US", "German", "referee"):
        drawn = _hexes(ET.fromstring(_svg_of(game, role)))
        marks = [m for g in drawn.values() for m in _marks(g, "fort-mark")]
        assert [m.get("data-shown") for m in _marks(drawn[hx], "fort-mark")] == ["true"], role
        assert len(marks) == 1, role
        assert "Fortification placed on-map (8.6073)" in (drawn[hx].findtext(f"{NS}title") or "")
