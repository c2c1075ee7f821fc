"""A map group from a grid (DESIGN §15, ``cgledger.domain.map_grid``): every
hex of one board or several with its ASL id, ``q`` and ``r``. The geometry is
checked against the board itself (a column of the second kind sits half a
hex higher) and against ``cgledger.domain.hexes``; the counts against the
formula; bad grids are 422s naming the field."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cgledger.domain import hexes
from cgledger.domain.errors import InvalidInput
from cgledger.domain.map_grid import MAX_HEXES, MapGrid, grid_count, map_group_from_grid
from cgledger.domain.rulesets import REGISTRY


def _group(body: dict[str, Any]) -> dict[str, Any]:
    return map_group_from_grid(MapGrid.model_validate({"id": "St", **body}))


def _height(hex_id: str, offset: int) -> tuple[int, int]:
    """Where a hex lies on its board, from its id alone, in half hexes: its
    column and the height of its centre below the top edge. A column of the
    first kind has row 1 half a hex down; of the second, row 0 on the edge."""
    _, column, row = hexes.parse(hex_id)
    second = (column + offset) % 2
    return column, 2 * row - (1 - second)


def _touch(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Two hexes touch: one above the other, or in next columns half a hex apart."""
    dc, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (dc == 0 and dy == 2) or (dc == 1 and dy == 1)


def _neighbours_agree(group: dict[str, Any], place: Any) -> None:
    at = {(h["q"], h["r"]): h["hex"] for h in group["hexes"]}
    assert len(at) == len(group["hexes"])  # no two hexes on one spot
    for h in group["hexes"]:
        around = {at[n] for n in hexes.neighbours(h["q"], h["r"]) if n in at}
        by_board = {o for o in at.values() if _touch(place(h["hex"]), place(o))}
        assert around == by_board, h


@pytest.mark.parametrize(
    ("columns", "rows", "offset", "count", "first", "last"),
    [
        # A geomorphic board: A1-A10, B0-B10, ... GG1-GG10.
        ("A-GG", [1, 10], 0, 17 * 10 + 16 * 11, ["A1", "A2"], ["GG9", "GG10"]),
        # Column A of the second kind: A0-A10, B1-B10.
        ("A-GG", [1, 10], 1, 17 * 11 + 16 * 10, ["A0", "A1"], ["GG9", "GG10"]),
        # Past Z: Y, Z, AA, BB.
        ("Y-BB", [1, 2], 0, 2 * 2 + 2 * 3, ["Y1", "Y2", "Z0"], ["BB0", "BB1", "BB2"]),
        ("C", [3, 3], 0, 1, ["C3"], ["C3"]),
    ],
)
def test_a_grid_gives_every_hex(
    columns: str, rows: list[int], offset: int, count: int, first: list[str], last: list[str]
) -> None:
    group = _group({"columns": columns, "rows": rows, "first_column_offset": offset})
    ids = [h["hex"] for h in group["hexes"]]
    assert len(ids) == count
    assert ids[: len(first)] == first
    assert ids[-len(last) :] == last
    assert (group["entry_areas"], group["hq"], group["initial_control"]) == ([], {}, {})
    # It is a map group of §9 as a definition holds it.
    REGISTRY["kgp"].definition.model_validate({"map_groups": [group]})


def test_a1_touches_b0_and_b1_and_b_sits_higher_when_a_is_of_the_second_kind() -> None:
    first = _group({"columns": "A-B", "rows": [1, 10]})
    second = _group({"columns": "A-B", "rows": [1, 10], "first_column_offset": 1})
    for group, a1 in ((first, {"A2", "B0", "B1"}), (second, {"A0", "A2", "B1", "B2"})):
        at = {(h["q"], h["r"]): h["hex"] for h in group["hexes"]}
        spot = next((h["q"], h["r"]) for h in group["hexes"] if h["hex"] == "A1")
        assert {at[n] for n in hexes.neighbours(*spot) if n in at} == a1


GRID = st.tuples(
    st.integers(0, 60),  # first column
    st.integers(0, 12),  # more columns
    st.integers(1, 30),  # first row
    st.integers(0, 12),  # more rows
    st.sampled_from([0, 1]),
)


@given(GRID)
def test_a_grid_s_geometry(grid: tuple[int, int, int, int, int]) -> None:
    lo, more, row, rows, offset = grid
    columns = f"{hexes.column_letters(lo)}-{hexes.column_letters(lo + more)}"
    group = _group({"columns": columns, "rows": [row, row + rows], "first_column_offset": offset})
    ids = [h["hex"] for h in group["hexes"]]
    assert len(ids) == len(set(ids)) == grid_count(lo, lo + more, [row, row + rows], offset)
    _neighbours_agree(group, lambda h: _height(h, offset))
    if offset == 0:  # then it is hexes.to_axial of the id
        assert all(hexes.to_axial(h["hex"]) == (h["q"], h["r"]) for h in group["hexes"])


@given(
    st.lists(st.integers(1, 10), min_size=1, max_size=3),  # each board's last column, halved
    st.integers(1, 4),  # the last row
)
def test_boards_side_by_side(widths: list[int], last_row: int) -> None:
    """Boards of even width side by side, the second and later listed from
    column B (their A is the last column of the one before): the hexes are
    those of ``hexes.to_axial`` with each board placed as ``hexes.Board``."""
    boards, places, column = [], {}, 0
    for n, half in enumerate(widths):
        board = str(n + 1)
        first = "A" if n == 0 else "B"
        last = hexes.column_letters(2 * half)
        boards.append({"board": board, "columns": f"{first}-{last}", "rows": [1, last_row]})
        places[board] = hexes.Board(column=column)
        column += 2 * half
    group = _group({"boards": boards})
    assert all(hexes.to_axial(h["hex"], places) == (h["q"], h["r"]) for h in group["hexes"])
    expected = sum(
        grid_count(0 if n == 0 else 1, 2 * half, [1, last_row], 0) for n, half in enumerate(widths)
    )
    assert len(group["hexes"]) == expected

    def place(hex_id: str) -> tuple[int, int]:
        board, c, row = hexes.parse(hex_id)
        assert board is not None
        return places[board].column + c, 2 * row - (1 - c % 2)

    _neighbours_agree(group, place)


def test_a_board_placed_by_its_column_and_row() -> None:
    group = _group(
        {
            "boards": [
                {"board": "12", "columns": "A-C", "rows": [1, 2]},
                {"board": "13", "columns": "A-C", "rows": [1, 2], "column": 4, "row": 3},
            ]
        }
    )
    spots = {h["hex"]: (h["q"], h["r"]) for h in group["hexes"]}
    places = {"12": hexes.Board(), "13": hexes.Board(column=4, row=3)}
    assert spots == {h: hexes.to_axial(h, places) for h in spots}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"columns": "C-A", "rows": [1, 10]}, "columns"),
        ({"columns": "AB-C", "rows": [1, 10]}, "columns"),
        ({"columns": "A-C", "rows": [10, 1]}, "rows"),
        ({"columns": "A-C"}, "rows"),
        ({"rows": [1, 2]}, "columns"),
        ({"columns": "A-" + "Z" * 20, "rows": [1, 2]}, "columns"),  # ids over 20 characters
        ({"columns": "A-ZZZZ", "rows": [1, 999]}, "columns"),  # over MAX_HEXES
        (
            {
                "columns": "A-C",
                "rows": [1, 2],
                "boards": [{"board": "1", "columns": "A", "rows": [1, 1]}],
            },
            "boards",
        ),
        (
            {
                "boards": [
                    {"board": "1", "columns": "A-GG", "rows": [1, 10]},
                    {"board": "1", "columns": "B-GG", "rows": [1, 10]},
                ]
            },
            "boards.1.board",
        ),
        (
            {
                "boards": [
                    {"board": "1", "columns": "A-GG", "rows": [1, 10]},
                    {"board": "2", "columns": "A-GG", "rows": [1, 10]},
                ]
            },
            "boards.1.column",
        ),
        (
            {
                "boards": [
                    {"board": "1", "columns": "A-GG", "rows": [1, 10]},
                    {"board": "2", "columns": "A-GG", "rows": [1, 10], "column": 32},
                ]
            },
            "boards.1",
        ),
        (
            {
                "boards": [
                    {"board": "1", "columns": "A-GG", "rows": [1, 10]},
                    {"board": "2", "columns": "C-GG", "rows": [2, 10], "row": -1, "column": 30},
                ]
            },
            "boards.1",
        ),
    ],
)
def test_a_bad_grid_is_refused_naming_the_field(body: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        _group(body)
    assert caught.value.field == field
    assert caught.value.detail.startswith(f"{field}:")


def test_the_cap_is_the_hexes_a_map_group_holds() -> None:
    """20,000 hexes: 101 columns of 100 hexes (the second kind) and 100 of 99."""
    rows = [1, 99]
    assert grid_count(0, 200, rows, 1) == MAX_HEXES == 20_000
    last, over = hexes.column_letters(200), hexes.column_letters(201)
    group = _group({"columns": f"A-{last}", "rows": rows, "first_column_offset": 1})
    assert len(group["hexes"]) == MAX_HEXES
    with pytest.raises(InvalidInput, match="more than 20,000 hexes"):
        _group({"columns": f"A-{over}", "rows": rows, "first_column_offset": 1})
