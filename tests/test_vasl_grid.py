"""A VASL board's grid from its BoardMetadata.xml (DESIGN §15,
``cgledger.domain.vasl_grid``): every layout VASL's metadata declares, each
hex's id, ``q`` and ``r``; the axial frame agrees with where VASL puts the
hexes' centres on the image (Hypothesis), and with the grid tool and
``cgledger.domain.hexes``; a layout it does not know is refused, never
guessed."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from vasl_boards import board_xml

from cgledger.domain import hexes
from cgledger.domain.errors import InvalidInput
from cgledger.domain.map_grid import MapGrid, map_group_from_grid
from cgledger.domain.vasl_grid import Grid, hexes_of, layout_of, parse_metadata

WHERE = "zip.BoardMetadata.xml"


def _grid(width: int, height: int, **attrs: str) -> Grid:
    return layout_of(parse_metadata(board_xml(width, height, **attrs), WHERE), WHERE)


def _ids(grid: Grid) -> list[str]:
    return [h.hex for h in hexes_of(grid)]


@pytest.mark.parametrize(
    ("size", "attrs", "layout", "count", "first", "last"),
    [
        # A geomorphic board, no geometry given: VASL's standard one.
        ((33, 10), {}, "normal", 17 * 10 + 16 * 11, ["A1", "A2"], ["GG9", "GG10"]),
        ((33, 10), {"HexGridConfig": "Normal"}, "normal", 346, ["A1"], ["GG10"]),
        # A half board (1a-9b): A1CenterX -901 letters the columns from Q.
        (
            (17, 20),
            {"A1CenterX": "-901", "hexWidth": "56.3125", "hexHeight": "64.5"},
            "normal",
            9 * 20 + 8 * 21,
            ["Q1", "Q2"],
            ["GG19", "GG20"],
        ),
        # Rows that continue another board's (BFP's DW 2b): A1CenterY < 0.
        (
            (33, 10),
            {"A1CenterY": "-612.75", "hexHeight": "64.5", "hexWidth": "56.25"},
            "normal",
            346,
            ["A11", "A12"],
            ["GG19", "GG20"],
        ),
        # Equal rows (Red October): A0 a half hex, every column 0 to height - 1.
        (
            (36, 49),
            {"HexGridConfig": "TopLeftHalfHeightEqualRowCount", "A1CenterY": "65"},
            "equal_rows",
            36 * 49,
            ["A0", "A1"],
            ["JJ47", "JJ48"],
        ),
        ((4, 3), {"A1CenterY": "65"}, "equal_rows", 12, ["A0", "A1", "A2", "B0"], ["D2"]),
        ((4, 3), {"HexGridConfig": "toplefthalfheightequalrowcount"}, "equal_rows", 12, [], []),
        # The alternate grain: the upper left hex is A0, B1 is higher.
        ((33, 10), {"altHexGrain": "TRUE"}, "alternate", 17 * 11 + 16 * 10, ["A0"], ["GG10"]),
        ((3, 2), {"altHexGrain": "yes"}, "alternate", 8, ["A0", "A1", "A2", "B1", "B2", "C0"], []),
    ],
)
def test_each_layout_gives_every_hex(
    size: tuple[int, int],
    attrs: dict[str, str],
    layout: str,
    count: int,
    first: list[str],
    last: list[str],
) -> None:
    grid = _grid(*size, **attrs)
    ids = _ids(grid)
    assert (grid.layout, len(ids), grid.count()) == (layout, count, count)
    assert len(set(ids)) == count
    assert ids[: len(first)] == first
    assert ids[len(ids) - len(last) :] == last


def _as_grid_tool(grid: Grid, rows: list[int], offset: int) -> list[dict[str, Any]]:
    first = hexes.column_letters(grid.first_column)
    last = hexes.column_letters(grid.first_column + grid.width - 1)
    body = {"id": "X", "columns": f"{first}-{last}", "rows": rows, "first_column_offset": offset}
    hexes_: list[dict[str, Any]] = map_group_from_grid(MapGrid.model_validate(body))["hexes"]
    return hexes_


@pytest.mark.parametrize(
    ("attrs", "rows", "offset"),
    [
        ({}, [1, 10], 0),
        ({"altHexGrain": "true"}, [1, 10], 1),
        ({"A1CenterX": "-901"}, [1, 10], 0),
        ({"A1CenterY": "-612.75"}, [11, 20], 0),
    ],
)
def test_ids_and_places_are_the_grid_tools(
    attrs: dict[str, str], rows: list[int], offset: int
) -> None:
    """The same board from the grid tool (``first_column_offset`` 1 for the
    alternate grain) has the same hexes, ids, q and r, in the same order."""
    grid = _grid(17 if "A1CenterX" in attrs else 33, 10, **attrs)
    mine = [{"hex": h.hex, "q": h.q, "r": h.r} for h in hexes_of(grid)]
    assert mine == _as_grid_tool(grid, rows, offset)


LAYOUTS = st.sampled_from(
    [
        {},
        {"A1CenterX": "-901"},
        {"A1CenterY": "-612.75"},
        {"A1CenterY": "97.1"},
        {"HexGridConfig": "TopLeftHalfHeightEqualRowCount"},
        {"A1CenterY": "65"},
        {"altHexGrain": "true"},
    ]
)


@given(
    attrs=LAYOUTS,
    width=st.integers(1, 12),
    height=st.integers(1, 9),
    size=st.tuples(st.floats(10, 90), st.floats(10, 90)),
)
def test_axial_neighbours_are_the_hexes_whose_centres_touch(
    attrs: dict[str, str], width: int, height: int, size: tuple[float, float]
) -> None:
    """VASL places each hex's centre on the image (``Map``); two hexes
    touch there (one above the other a hex apart, or in next columns half a
    hex apart) exactly when their ``q``, ``r`` are neighbours (DESIGN §9)."""
    grid = _grid(width, height, hexWidth=f"{size[0]}", hexHeight=f"{size[1]}", **attrs)
    cells = list(hexes_of(grid))
    at = {(h.q, h.r): h for h in cells}
    assert len(at) == len(cells) == grid.count()
    hw, hh = grid.hex_width, grid.hex_height
    for h in cells:
        around = {at[n].hex for n in hexes.neighbours(h.q, h.r) if n in at}
        touching = set()
        for o in cells:
            dx, dy = abs(o.x - h.x), abs(o.y - h.y)
            if (math.isclose(dx, 0, abs_tol=1e-6) and math.isclose(dy, hh, rel_tol=1e-9)) or (
                math.isclose(dx, hw, rel_tol=1e-9) and math.isclose(dy, hh / 2, rel_tol=1e-9)
            ):
                touching.add(o.hex)
        assert around == touching, h
        # The id alone gives the place: the odd-q frame of cgledger.domain.hexes,
        # or with the alternate grain, the frame the grid tool's offset 1 uses.
        _, column, row = hexes.parse(h.hex)
        assert column == h.q
        grain = 1 if grid.layout == "alternate" else 0
        assert h.r == row - (column + grain - (column + grain) % 2) // 2


@pytest.mark.parametrize(
    ("xml", "why"),
    [
        (b"<boardMetadata width='3'/>", "no height"),
        (board_xml(0, 10), "width='0' is not a whole number of hexes from 1 to 200"),
        (board_xml(33, 10, hexWidth="wide"), "hexWidth='wide' is not a number"),
        (board_xml(33, 10, hexHeight="nan"), "hexHeight='nan' is not a number"),
        (board_xml(33, 10, hexHeight="0.5"), "hexHeight=0.5 is not a hex size"),
        (board_xml(33, 10, altHexGrain="maybe"), "altHexGrain='maybe' is not true or false"),
        (b"<sharedBoardMetadata/>", "root element is <sharedBoardMetadata>"),
        (b"<boardMetadata width='3'", "not well-formed XML at line 1, column"),
        (b"<?xml version='1.0'?>\n<a>\n<b></a>", "line 3, column"),
        (
            b"<!DOCTYPE b [<!ENTITY x 'xx'>]><boardMetadata width='&x;' height='2'/>",
            "a document type declaration is not read",
        ),
        (board_xml(33, 10, HexGridConfig="FullHexLeftHalf"), "HexGridConfig='FullHexLeftHalf'"),
        (board_xml(33, 10, HexGridConfig="TopLeftHalfHeight"), "a layout this tool does not read"),
        (board_xml(33, 10, A1CenterY="0"), "A1CenterY=0"),
        (
            board_xml(33, 10, altHexGrain="true", A1CenterY="65"),
            "altHexGrain with equal rows",
        ),
        (
            board_xml(33, 10, altHexGrain="true", A1CenterY="-100"),
            "altHexGrain with A1CenterY < 0",
        ),
        (board_xml(40, 10, A1CenterX="-901"), "VASL letters only 36 from Q"),
        (board_xml(200, 200), "more than the 20,000 a map group holds"),
    ],
)
def test_metadata_it_cannot_read_is_refused_saying_why(xml: bytes, why: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        layout_of(parse_metadata(xml, WHERE), WHERE)
    assert refused.value.field == WHERE
    assert why in refused.value.detail, refused.value.detail


def test_the_metadata_is_read_as_vasl_reads_it() -> None:
    """Attributes are trimmed, may have spaces round '=', booleans in any
    case; an XML 1.1 declaration is read; buildingTypes in order."""
    xml = (
        b'<?xml version="1.1"?>\n<boardMetadata name = " RO " width = " 36 " height="49"\n'
        b' hexHeight = "64.47" A1CenterY = "65" altHexGrain="FALSE">'
        b"<buildingTypes><buildingType hexName='F5' buildingTypeName='Stone Building, 1 Level'/>"
        b"<!-- <buildingType hexName='F6' buildingTypeName='x'/> -->"
        b"<buildingType hexName='A2' buildingTypeName='Wooden Building'/></buildingTypes>"
        b"</boardMetadata>"
    )
    meta = parse_metadata(xml, WHERE)
    assert (meta.name, meta.width, meta.height, meta.hex_height, meta.a1_y) == (
        "RO",
        36,
        49,
        64.47,
        65.0,
    )
    assert list(meta.building_types.items()) == [
        ("F5", "Stone Building, 1 Level"),
        ("A2", "Wooden Building"),
    ]
    assert not meta.alt_grain
    assert layout_of(meta, WHERE).layout == "equal_rows"
