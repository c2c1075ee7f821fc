"""The SVG map of the Setup Areas (DESIGN §9, ``GET /setup-areas.svg``;
MARKING THE MAP after 8.6057, 9.6055): :func:`render_svg` parsed back with
ElementTree, hex by hex."""

from __future__ import annotations

import copy
import math
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from cgledger.projections.setup_map import HEX_SIZE, render_svg

NS = "{http://www.w3.org/2000/svg}"
SIDES = ["US", "German"]
NASTY = "<&\"'>"


def _hex(hx: str, status: str, area: str | None = None, **more: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "hex": hx,
        "status": status,
        "area": area,
        "strategic": False,
        "marker": None,
        "controlled_by": None,
        "isolated": None if area is None else False,
        "enterable": True,
        "levels": [],
    }
    base.update(more)
    return base


def _answer() -> dict[str, Any]:
    """A corner of Stoumont like the EX after 8.6057: the church J19 (US
    ground, German first level, US Steeple Isolated), the Isolated J21, a
    US Gun in K23 (a "G" Strategic Location), a German area, No Man's Land,
    Uncontrolled Territory, and a hex that is not Enterable."""
    hexes = [
        _hex(
            "J19",
            "US",
            "A",
            strategic=True,
            controlled_by="US",
            levels=[
                {"level": 1, "controlled_by": "German", "isolated": False, "area": "A"},
                {"level": 2, "controlled_by": "US", "isolated": True, "area": None},
            ],
        ),
        _hex("J20", "US", "A"),
        _hex("J21", "US", "B", strategic=True, controlled_by="US", isolated=True),
        _hex("K23", "US", "C", strategic=True, marker="G", controlled_by="US"),
        _hex("H20", "German", "A", strategic=True, marker="V", controlled_by="German"),
        _hex("H19", "German", "A"),
        _hex("I20", "nml"),
        _hex("I21", "nml"),
        _hex("E18", "uncontrolled"),
        _hex("E19", "uncontrolled", strategic=True),
        _hex("F20", "uncontrolled", enterable=False),
    ]
    areas = [
        {"id": "A", "side": "US", "hexes": ["J19", "J20"], "isolated": False},
        {"id": "B", "side": "US", "hexes": ["J21"], "isolated": True},
        {"id": "C", "side": "US", "hexes": ["K23"], "isolated": False},
        {"id": "A", "side": "German", "hexes": ["H20", "H19"], "isolated": False},
    ]
    return {
        "map_group": "St",
        "cg_date": "19 AM",
        "frozen": False,
        "at": None,
        "hexes": hexes,
        "areas": areas,
        "rule": "8.605",
    }


def _axial(hx: str) -> tuple[int, int]:
    """An ASL id (one column letter, counted from E) as axial (q, r): odd
    columns are half a hex lower."""
    q = ord(hx[0]) - ord("E")
    row = int(hx[1:])
    return q, row - (q - (q & 1)) // 2


def _coords(answer: dict[str, Any]) -> dict[str, tuple[int, int]]:
    return {h["hex"]: _axial(h["hex"]) for h in answer["hexes"]}


def _render(answer: dict[str, Any] | None = None, sides: list[str] | None = None) -> ET.Element:
    answer = _answer() if answer is None else answer
    svg = render_svg(answer, _coords(answer), SIDES if sides is None else sides, title="Stoumont")
    return ET.fromstring(svg)


def _hexes(root: ET.Element) -> dict[str, ET.Element]:
    found: dict[str, ET.Element] = {}
    for el in root.iter():
        hx = el.get("data-hex")
        if hx is not None:
            assert hx not in found, f"{hx} drawn twice"
            found[hx] = el
    return found


def _cell(group: ET.Element) -> ET.Element:
    cells = [p for p in group.iter(f"{NS}polygon") if p.get("class") == "cell"]
    assert len(cells) == 1
    return cells[0]


def _points(polygon: ET.Element) -> list[tuple[float, float]]:
    out = []
    for pair in (polygon.get("points") or "").split():
        x, y = pair.split(",")
        out.append((float(x), float(y)))
    return out


def _legend(root: ET.Element, kind: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if f"legend-{kind}" in (g.get("class") or "").split()]


def _side_swatch(root: ET.Element, side: str) -> ET.Element:
    items = [g for g in _legend(root, "side") if g.get("data-side") == side]
    assert len(items) == 1, side
    swatch = items[0].find(f"{NS}rect")
    assert swatch is not None
    return swatch


def test_one_hex_element_per_hex_with_its_status_and_area() -> None:
    answer = _answer()
    drawn = _hexes(_render(answer))
    assert set(drawn) == {h["hex"] for h in answer["hexes"]}
    for h in answer["hexes"]:
        el = drawn[h["hex"]]
        assert el.get("data-status") == h["status"]
        assert el.get("data-area") == (h["area"] or "")
        classes = (el.get("class") or "").split()
        assert "hex" in classes
        assert f"status-{h['status'].lower()}" in classes
        ids = [t.text for t in el.iter(f"{NS}text") if t.get("class") == "hex-id"]
        assert ids == [h["hex"]]


def test_the_tooltip_reads_status_area_strategic_and_isolated() -> None:
    drawn = _hexes(_render())
    tips = {hx: el.findtext(f"{NS}title") for hx, el in drawn.items()}
    # Each hex says who Controls it (DESIGN §12), right after its status.
    assert tips["J21"] == "J21 - US Setup Area B - Controlled by US (A26.11) - Strategic - Isolated"
    assert tips["I20"] == "I20 - No Man's Land - not Controlled"
    assert tips["E18"] == "E18 - Uncontrolled Territory - not Controlled"
    assert tips["F20"] == "F20 - Uncontrolled Territory - not Controlled - not Enterable"
    assert tips["K23"] is not None
    assert tips["K23"].startswith(
        "K23 - US Setup Area C - Controlled by US (A26.11) - Strategic (G: "
    )
    assert tips["J19"] is not None
    assert "level 1: German" in tips["J19"]
    assert "level 2: US, Isolated" in tips["J19"]


def test_side_colours_differ_and_match_the_legend() -> None:
    root = _render()
    drawn = _hexes(root)
    us = _cell(drawn["J20"]).get("fill")
    german = _cell(drawn["H19"]).get("fill")
    assert us is not None
    assert german is not None
    assert us != german
    assert _side_swatch(root, "US").get("fill") == us
    assert _side_swatch(root, "German").get("fill") == german
    # Each area's boundary is drawn in its side's legend stroke.
    strokes = {
        p.get("data-side"): p.get("stroke")
        for g in root.iter(f"{NS}g")
        if g.get("class") == "area-boundaries"
        for p in g.iter(f"{NS}path")
    }
    assert strokes == {
        "US": _side_swatch(root, "US").get("stroke"),
        "German": _side_swatch(root, "German").get("stroke"),
    }
    assert strokes["US"] != strokes["German"]


def test_sides_are_coloured_by_their_index_not_their_name() -> None:
    straight = _hexes(_render(sides=["US", "German"]))
    swapped = _hexes(_render(sides=["German", "US"]))
    assert _cell(straight["J20"]).get("fill") == _cell(swapped["H19"]).get("fill")
    assert _cell(straight["H19"]).get("fill") == _cell(swapped["J20"]).get("fill")


def test_no_mans_land_uses_the_hatch_pattern() -> None:
    root = _render()
    drawn = _hexes(root)
    fill = _cell(drawn["I20"]).get("fill") or ""
    found = re.fullmatch(r"url\(#([^)]+)\)", fill)
    assert found is not None, fill
    patterns = {p.get("id"): p for p in root.iter(f"{NS}pattern")}
    hatch = patterns[found.group(1)]
    assert hatch.find(f"{NS}line") is not None  # diagonal lines...
    assert hatch.get("patternTransform") == "rotate(45)"
    pale = hatch.find(f"{NS}rect")
    assert pale is not None  # ...on pale yellow
    assert pale.get("fill") != "#ffffff"
    legend = _legend(root, "nml")
    assert len(legend) == 1
    swatch = legend[0].find(f"{NS}rect")
    assert swatch is not None
    assert swatch.get("fill") == fill
    # Only No Man's Land is hatched; Uncontrolled Territory is plain.
    hatched = {hx for hx, el in drawn.items() if _cell(el).get("fill") == fill}
    assert hatched == {"I20", "I21"}
    assert _cell(drawn["E18"]).get("fill", "").startswith("#")


def test_strategic_locations_have_the_thicker_outline_in_the_controllers_colour() -> None:
    root = _render()
    drawn = _hexes(root)
    grid = float(_cell(drawn["E18"]).get("stroke-width") or 0)
    outlined = {}
    for hx, el in drawn.items():
        outlines = [p for p in el.iter(f"{NS}polygon") if p.get("class") == "strategic-outline"]
        assert len(outlines) <= 1
        if outlines:
            assert float(outlines[0].get("stroke-width") or 0) > 2 * grid
            outlined[hx] = outlines[0].get("stroke")
    assert set(outlined) == {"J19", "J21", "K23", "H20", "E19"}
    us = _side_swatch(root, "US").get("stroke")
    german = _side_swatch(root, "German").get("stroke")
    assert outlined["J19"] == us
    assert outlined["H20"] == german
    assert outlined["E19"] == "#000000"  # Strategic, but nobody Controls it


def test_marker_letters_sit_in_their_square() -> None:
    root = _render()
    drawn = _hexes(root)
    markers = {}
    for hx, el in drawn.items():
        for g in el.iter(f"{NS}g"):
            if g.get("class") == "marker":
                assert g.find(f"{NS}rect") is not None
                markers[hx] = g.findtext(f"{NS}text")
    assert markers == {"K23": "G", "H20": "V"}
    legend = {"".join(g.itertext()) for g in _legend(root, "marker")}
    assert {text[:3] for text in legend} == {"EE:", "FF:", "GG:", "VV:"}  # letter, then text


def test_isolated_marks_are_exactly_on_isolated_hexes() -> None:
    answer = _answer()
    root = _render(answer)
    drawn = _hexes(root)
    marked = {
        hx
        for hx, el in drawn.items()
        if any(t.get("class") == "iso-mark" for t in el.iter(f"{NS}text"))
    }
    dashed = {
        hx
        for hx, el in drawn.items()
        if any(p.get("class") == "iso-outline" for p in el.iter(f"{NS}polygon"))
    }
    expected = {h["hex"] for h in answer["hexes"] if h["isolated"] is True}
    assert expected == {"J21"}
    assert marked == expected
    assert dashed == expected
    assert "isolated" in (drawn["J21"].get("class") or "").split()
    assert len(_legend(root, "isolated")) == 1


def test_each_area_is_labelled_once_and_isolated_ones_in_italics() -> None:
    answer = _answer()
    root = _render(answer)
    labels = [t for t in root.iter(f"{NS}text") if "area-label" in (t.get("class") or "")]
    assert sorted(t.text or "" for t in labels) == ["German A", "US A", "US B", "US C"]
    by_text = {t.text: t for t in labels}
    assert by_text["US B"].get("font-style") == "italic"
    assert by_text["US A"].get("fill") == _side_swatch(root, "US").get("stroke")
    assert by_text["German A"].get("fill") == _side_swatch(root, "German").get("stroke")
    assert all(t.get("font-style") is None for k, t in by_text.items() if k != "US B")
    # Each label sits on a hex of its own area.
    drawn = _hexes(root)
    centres = {hx: _centre(_cell(el)) for hx, el in drawn.items()}
    for area in answer["areas"]:
        label = by_text[f"{area['side']} {area['id']}"]
        x, y = float(label.get("x") or 0), float(label.get("y") or 0)
        under = {
            hx
            for hx, (cx, cy) in centres.items()
            if abs(cx - x) < 0.5 and abs(cy - y) < 0.5 * HEX_SIZE
        }
        assert len(under) == 1
        assert under <= set(area["hexes"]), area


def test_an_area_of_a_side_named_nowhere_else_is_labelled_in_its_own_colour() -> None:
    answer = _answer()
    answer["areas"].append({"id": "Z", "side": "Ghost", "hexes": ["E18"], "isolated": False})
    root = _render(answer)
    labels = {t.text: t.get("fill") for t in root.iter(f"{NS}text") if t.get("data-area") == "Z"}
    assert labels == {"Ghost Z": _side_swatch(root, "Ghost").get("stroke")}
    strokes = {_side_swatch(root, side).get("stroke") for side in ("US", "German", "Ghost")}
    assert len(strokes) == 3


def test_upper_levels_of_another_side_or_isolated_get_a_badge() -> None:
    root = _render()
    drawn = _hexes(root)
    badges = [g for g in drawn["J19"].iter(f"{NS}g") if g.get("class") == "level-badge"]
    assert [(b.get("data-level"), b.get("data-side"), b.get("data-isolated")) for b in badges] == [
        ("1", "German", "false"),
        ("2", "US", "true"),
    ]
    german_dot = badges[0].find(f"{NS}circle")
    assert german_dot is not None
    assert german_dot.get("fill") == _side_swatch(root, "German").get("fill")
    others = [
        hx
        for hx, el in drawn.items()
        if any(g.get("class") == "level-badge" for g in el.iter(f"{NS}g"))
    ]
    assert others == ["J19"]


def test_an_upper_level_of_the_grounds_side_gets_no_badge() -> None:
    answer = _answer()
    answer["hexes"][0]["levels"] = [
        {"level": 1, "controlled_by": "US", "isolated": False, "area": "A"}
    ]
    drawn = _hexes(_render(answer))
    assert not [g for g in drawn["J19"].iter(f"{NS}g") if g.get("class") == "level-badge"]


def test_a_hex_that_is_not_enterable_is_shaded() -> None:
    drawn = _hexes(_render())
    shaded = {
        hx
        for hx, el in drawn.items()
        if any(p.get("class") == "blocked" for p in el.iter(f"{NS}polygon"))
    }
    assert shaded == {"F20"}


def test_text_from_the_user_is_escaped() -> None:
    answer = _answer()
    answer["hexes"].append(_hex(NASTY, "US", NASTY))
    answer["areas"].append({"id": NASTY, "side": "US", "hexes": [NASTY], "isolated": False})
    answer["cg_date"] = NASTY
    coords = _coords({"hexes": answer["hexes"][:-1]})
    coords[NASTY] = (9, 9)
    svg = render_svg(answer, coords, SIDES, title=f"Map {NASTY}\x00")
    root = ET.fromstring(svg)
    drawn = _hexes(root)
    assert drawn[NASTY].get("data-area") == NASTY
    assert (
        drawn[NASTY].findtext(f"{NS}title") == f"{NASTY} - US Setup Area {NASTY} - not Controlled"
    )
    heading = root.findtext(f"{NS}title") or ""
    assert heading.startswith(f"Map {NASTY}")
    assert NASTY in heading.split(" - CG Date ")[1]
    assert root.get("aria-label") == heading
    labels = [t.text for t in root.iter(f"{NS}text") if "area-label" in (t.get("class") or "")]
    assert f"US {NASTY}" in labels


def test_the_title_line_has_the_title_date_state_and_seq() -> None:
    answer = _answer()
    live = _render(answer).findtext(f"{NS}text")
    assert live == "Stoumont - CG Date 19 AM - live"
    answer.update(frozen=True, at=42)
    frozen = [t.text for t in _render(answer).iter(f"{NS}text") if t.get("class") == "map-title"]
    assert frozen == ["Stoumont - CG Date 19 AM - frozen - at #42"]


def _centre(polygon: ET.Element) -> tuple[float, float]:
    pts = _points(polygon)
    return sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)


def test_hexes_are_flat_topped_at_their_axial_place_inside_the_viewbox() -> None:
    coords = {"A": (-3, -2), "B": (-3, -1), "C": (-2, -2), "D": (0, 0), "E": (4, -5), "F": (2, 3)}
    answer = {
        "map_group": "X",
        "cg_date": "1",
        "frozen": False,
        "hexes": [_hex(hx, "uncontrolled") for hx in coords],
        "areas": [],
    }
    root = ET.fromstring(render_svg(answer, coords, SIDES, title="t"))
    box = [float(v) for v in (root.get("viewBox") or "").split()]
    assert box[:2] == [0, 0]
    assert root.get("width") is not None
    assert float(root.get("width") or 0) == box[2]
    assert float(root.get("height") or 0) == box[3]
    drawn = _hexes(root)
    s = HEX_SIZE
    shift = None
    for hx, (q, r) in coords.items():
        polygon = _cell(drawn[hx])
        cx, cy = _centre(polygon)
        # Every corner is inside the viewBox, and so is the centre.
        for x, y in _points(polygon):
            assert 0 <= x <= box[2]
            assert 0 <= y <= box[3]
        # The centre is the axial place, flat-topped (odd-q), shifted as a whole.
        here = (cx - s * 1.5 * q, cy - s * math.sqrt(3) * (r + q / 2))
        shift = shift or here
        assert here == pytest.approx(shift, abs=0.2)
        # A flat top: the two highest corners share one y.
        ys = sorted(y for _, y in _points(polygon))
        assert ys[0] == pytest.approx(ys[1], abs=0.11)
        assert ys[1] < ys[2] - 5
    # The map lies below the title, and the legend below the map in its own
    # region (DESIGN §12: the legend does not crowd the map).
    title = next(t for t in root.iter(f"{NS}text") if t.get("class") == "map-title")
    legend_top = min(
        float(r.get("y") or 0)
        for g in root.iter(f"{NS}g")
        if g.get("class") == "legend"
        for r in g.iter(f"{NS}rect")
    )
    tops = [min(y for _, y in _points(_cell(el))) for el in drawn.values()]
    bottoms = [max(y for _, y in _points(_cell(el))) for el in drawn.values()]
    assert float(title.get("y") or 0) < min(tops) < float(title.get("y") or 0) + 30
    assert max(bottoms) < legend_top < max(bottoms) + 30
    # The drawing starts near the margin.
    lefts = [min(x for x, _ in _points(_cell(el))) for el in drawn.values()]
    assert 0 < min(lefts) < 30


def test_a_setup_area_is_bounded_by_its_outer_edges() -> None:
    # Two neighbouring US hexes: 12 edges, less the 2 that they share (once each way).
    coords = {"a": (0, 0), "b": (0, 1), "c": (1, 0), "d": (5, 5)}
    answer = {
        "hexes": [_hex("a", "US", "A"), _hex("b", "US", "A"), _hex("c", "nml"), _hex("d", "US")],
        "areas": [{"id": "A", "side": "US", "hexes": ["a", "b"], "isolated": False}],
    }
    root = ET.fromstring(render_svg(answer, coords, SIDES, title="t"))
    paths = [p for p in root.iter(f"{NS}path") if p.get("data-side") == "US"]
    assert len(paths) == 1
    segments = (paths[0].get("d") or "").count("M")
    assert segments == 10 + 6  # the pair, and the lone hex "d" in no area


def test_same_input_same_output() -> None:
    answer = _answer()
    first = render_svg(answer, _coords(answer), SIDES, title="Stoumont")
    again = render_svg(copy.deepcopy(answer), dict(_coords(answer)), list(SIDES), title="Stoumont")
    assert first == again
    other = copy.deepcopy(answer)
    other["hexes"][1]["status"] = "nml"
    assert render_svg(other, _coords(other), SIDES, title="Stoumont") != first


def test_an_empty_areas_list_and_an_empty_map_work() -> None:
    answer = _answer()
    answer["areas"] = []
    root = _render(answer)
    assert len(_hexes(root)) == len(answer["hexes"])
    assert not [t for t in root.iter(f"{NS}text") if "area-label" in (t.get("class") or "")]
    empty = ET.fromstring(render_svg({"hexes": [], "areas": []}, {}, SIDES, title="none"))
    assert _hexes(empty) == {}
    assert float((empty.get("viewBox") or "0 0 0 0").split()[3]) > 0


@pytest.mark.parametrize("sides", [["US", "German", "Partisan"], ["US", "German"]])
def test_a_hex_of_a_third_side_gets_its_own_colour(sides: list[str]) -> None:
    answer = _answer()
    answer["hexes"].append(_hex("M20", "Partisan", "A", strategic=True, controlled_by="Partisan"))
    answer["areas"].append({"id": "A", "side": "Partisan", "hexes": ["M20"], "isolated": False})
    root = _render(answer, sides=sides)
    drawn = _hexes(root)
    third = drawn["M20"]
    assert third.get("data-status") == "Partisan"
    assert "status-partisan" in (third.get("class") or "").split()
    fills = {_cell(drawn[hx]).get("fill") for hx in ("J20", "H19", "M20")}
    assert len(fills) == 3
    assert _side_swatch(root, "Partisan").get("fill") == _cell(third).get("fill")


def test_a_hex_without_coordinates_is_refused() -> None:
    answer = _answer()
    coords = _coords(answer)
    del coords["J20"]
    with pytest.raises(ValueError, match="J20"):
        render_svg(answer, coords, SIDES, title="t")


def test_missing_keys_are_tolerated() -> None:
    coords = {"a": (0, 0), "b": (1, 0)}
    answer = {"hexes": [{"hex": "a", "status": "nml"}, {"hex": "b", "status": "uncontrolled"}]}
    drawn = _hexes(ET.fromstring(render_svg(answer, coords, SIDES, title="t")))
    assert {hx: el.get("data-status") for hx, el in drawn.items()} == {
        "a": "nml",
        "b": "uncontrolled",
    }
    assert drawn["a"].get("data-area") == ""


def test_a_map_of_20000_hexes_is_drawn_whole() -> None:
    coords: dict[str, tuple[int, int]] = {}
    hexes = []
    for q in range(200):
        for row in range(100):
            hx = f"{q}.{row}"
            coords[hx] = (q, row - (q - (q & 1)) // 2)
            status = ("US", "German", "nml", "uncontrolled")[(q // 10 + row // 10) % 4]
            area = "A" if status in SIDES else None
            hexes.append(_hex(hx, status, area, strategic=row % 7 == 0, isolated=row % 11 == 0))
    root = ET.fromstring(render_svg({"hexes": hexes, "areas": []}, coords, SIDES, title="big"))
    drawn = _hexes(root)
    assert len(drawn) == 20_000
    marked = sum(
        1 for el in drawn.values() for t in el.iter(f"{NS}text") if t.get("class") == "iso-mark"
    )
    assert marked == sum(1 for h in hexes if h["isolated"] is True)


def test_the_highlighted_status_is_hatched_and_the_other_plain() -> None:
    """KGP highlights No Man's Land (MARKING THE MAP); ABtF 9.6055 highlights
    Uncontrolled Territory instead."""
    answer = {
        "hexes": [
            {"hex": "A1", "status": "nml", "area": None},
            {"hex": "A2", "status": "uncontrolled", "area": None},
        ],
        "areas": [],
    }
    coords = {"A1": (0, 1), "A2": (0, 2)}

    def fills(svg: str) -> dict[str, str]:
        return {hx: _cell(g).get("fill") or "" for hx, g in _hexes(ET.fromstring(svg)).items()}

    kgp = fills(render_svg(answer, coords, ["US", "German"], title="t"))
    abtf = fills(
        render_svg(answer, coords, ["British", "German"], title="t", highlight="uncontrolled")
    )
    assert kgp["A1"].startswith("url(#")
    assert not kgp["A2"].startswith("url(#")
    assert abtf["A2"].startswith("url(#")
    assert not abtf["A1"].startswith("url(#")
