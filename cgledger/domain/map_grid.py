"""A Map Group from a grid of hexes (DESIGN §15): every hex of one board, or
of several side by side, with its ASL id and its axial ``q``, ``r`` (§9), for
the players to mark its Strategic Locations, LVP, buildings and levels, Entry
Areas, HQ and initial Control.

The layout is geomorphic. ``rows: [1, 10]`` gives the columns of the first
kind rows 1-10 and those of the second kind rows 0-10; a column of the second
kind sits half a hex higher, so its row 0 lies on the top edge (A1 touches
B0 and B1). ``first_column_offset`` 0: column A (and C, E, ...) is of the
first kind; 1: of the second kind. Columns run A-Z, then AA-ZZ, AAA-...
(:func:`cgledger.domain.hexes.column_index`).

Coordinates (the "odd-q" convention of :mod:`cgledger.domain.hexes`): ``q``
is the map column ``X`` (a board's column index, plus the board's
``column``), ``r = row + board row - floor((X + K) / 2)``, where ``K`` is 0
when column A of the first board is of the first kind (then a hex's ``q``,
``r`` are :func:`cgledger.domain.hexes.to_axial` of its id, the board placed
by :class:`~cgledger.domain.hexes.Board`), and 1 otherwise.

Several boards: each names its ``board`` (its hex ids are then ``12J5``);
without a ``column`` a board lies right of the one before it, its first
listed column next to that one's last. The boards must agree on which map
columns are of which kind, and must not overlap: geomorphic boards whose edge
half-hexes make whole hexes are listed the second from column B ("B-GG"), its
column A being the first's GG. At most :data:`MAX_HEXES` hexes in all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from cgledger.domain.definition_types import MAX_COORD, MAX_HEXES, Id, Title
from cgledger.domain.errors import InvalidInput
from cgledger.domain.hexes import column_index, column_letters
from cgledger.domain.requests import Body

__all__ = [
    "MAX_HEXES",
    "BoardGrid",
    "MapGrid",
    "grid_count",
    "map_group_from_grid",
]

#: The highest row number and the farthest a board may be placed, in hexes.
MAX_ROW = 999
MAX_SHIFT = 2_000
#: The longest hex id a map group holds (``cgledger.domain.definition_types.Id``).
MAX_ID = 20

Columns = Annotated[
    str,
    StringConstraints(max_length=41, pattern=r"^[A-Z]{1,20}(-[A-Z]{1,20})?$"),
    Field(description="the first and last column, e.g. 'A-GG' (or one column, 'A')"),
]
Rows = Annotated[
    list[Annotated[int, Field(ge=1, le=MAX_ROW)]],
    Field(
        min_length=2,
        max_length=2,
        description="[first, last] row of a column of the first kind; a column of the "
        "second kind also has the row before the first (rows [1, 10]: A1-A10, B0-B10)",
    ),
]
Offset = Annotated[
    Literal[0, 1],
    Field(description="0: column A (C, E, ...) is of the first kind; 1: of the second kind"),
]
Shift = Annotated[int, Field(ge=-MAX_SHIFT, le=MAX_SHIFT)]


class BoardGrid(Body):
    """One board of several side by side: its number, grid and place."""

    board: str = Field(
        max_length=4,
        pattern=r"^[0-9]{1,3}[a-z]?$",
        description="the board's number, which starts its hex ids ('12' gives 12J5)",
    )
    columns: Columns
    rows: Rows
    first_column_offset: Offset = 0
    column: Shift | None = Field(
        default=None,
        description="the map column of the board's column A; default: right of the board "
        "before it (its first listed column next to that one's last)",
    )
    row: Shift = Field(default=0, description="added to the board's row numbers on the map")


class MapGrid(Body):
    """A map group's grid: one board (``columns``, ``rows``), or ``boards``."""

    id: Id = Field(description="the map group's id, e.g. 'St'")
    title: Title = ""
    columns: Columns | None = None
    rows: Rows | None = None
    first_column_offset: Offset = 0
    boards: Annotated[list[BoardGrid], Field(min_length=1, max_length=50)] | None = Field(
        default=None, description="several boards side by side, instead of columns and rows"
    )


def _range(columns: str, field: str) -> tuple[int, int]:
    first, _, last = columns.partition("-")
    try:
        lo, hi = column_index(first), column_index(last or first)
    except ValueError as exc:
        raise InvalidInput(f"{field}: {exc}", field=field) from None
    if hi < lo:
        raise InvalidInput(f"{field}: column {last} is left of column {first}", field=field)
    return lo, hi


def grid_count(first: int, last: int, rows: Sequence[int], offset: int) -> int:
    """How many hexes columns ``first`` to ``last`` (indexes) hold: the first
    kind's ``rows[1] - rows[0] + 1`` each, the second kind's one more."""
    columns = last - first + 1
    height = rows[1] - rows[0] + 1
    # Columns of the first kind: the indexes c with c + offset even.
    first_kind = (last + offset) // 2 - (first + offset - 1) // 2
    return first_kind * height + (columns - first_kind) * (height + 1)


def _hexes(
    board: str, lo: int, hi: int, rows: Sequence[int], offset: int, shift: tuple[int, int, int]
) -> Iterator[tuple[str, int, int]]:
    """``(hex id, q, r)`` of every hex of a board, column by column;
    ``shift``: the map column of its column A, its row shift and the map's K."""
    column, row, k = shift
    for c in range(lo, hi + 1):
        x = column + c
        start = rows[0] - (c + offset) % 2
        letters = column_letters(c)
        for n in range(start, rows[1] + 1):
            yield f"{board}{letters}{n}", x, n + row - (x + k) // 2


def _boards(grid: MapGrid) -> list[BoardGrid]:
    """The boards of the grid: its ``boards``, or its one unnumbered board."""
    if grid.boards is not None:
        if grid.columns is not None or grid.rows is not None:
            raise InvalidInput(
                "boards: give either boards or columns and rows, not both", field="boards"
            )
        return grid.boards
    if grid.columns is None or grid.rows is None:
        field = "columns" if grid.columns is None else "rows"
        raise InvalidInput(f"{field}: a grid needs columns and rows (or boards)", field=field)
    return [
        BoardGrid.model_construct(
            board="",
            columns=grid.columns,
            rows=grid.rows,
            first_column_offset=grid.first_column_offset,
            column=0,
            row=0,
        )
    ]


def _placed(grid: MapGrid) -> list[tuple[BoardGrid, int, int, int]]:
    """Each board with its column range and the map column of its column A,
    checked: rows in order, hex ids that fit, one board number once, the
    boards agreeing on the kind of each map column, and the count of hexes."""
    single = grid.boards is None
    out: list[tuple[BoardGrid, int, int, int]] = []
    seen: dict[str, int] = {}
    k = 0
    total = 0
    for i, board in enumerate(_boards(grid)):
        at = "" if single else f"boards.{i}."
        lo, hi = _range(board.columns, f"{at}columns")
        if board.rows[1] < board.rows[0]:
            why = f"row {board.rows[1]} is before row {board.rows[0]}"
            raise InvalidInput(f"{at}rows: {why}", field=f"{at}rows")
        longest = len(board.board) + len(column_letters(hi)) + len(str(board.rows[1]))
        if longest > MAX_ID:
            why = f"hex ids of column {column_letters(hi)} are over {MAX_ID} characters"
            raise InvalidInput(f"{at}columns: {why}", field=f"{at}columns")
        if board.board in seen:
            why = f"board {board.board} is listed twice (also boards.{seen[board.board]})"
            raise InvalidInput(f"{at}board: {why}", field=f"{at}board")
        seen[board.board] = i
        column = board.column
        if column is None:
            column = 0 if not out else out[-1][3] + out[-1][2] + 1 - lo
        if not out:
            k = (board.first_column_offset - column) % 2
        elif (board.first_column_offset - column) % 2 != k:
            raise InvalidInput(
                f"{at}column: its column A would lie on map column {column}, whose columns are "
                "of the other kind; boards whose edge half-hexes make whole hexes list the "
                "next board from column B (e.g. 'B-GG'), or set column or first_column_offset",
                field=f"{at}column",
            )
        total += grid_count(lo, hi, board.rows, board.first_column_offset)
        if total > MAX_HEXES:
            field = "columns" if single else "boards"
            raise InvalidInput(
                f"{field}: the grid has more than {MAX_HEXES:,} hexes, the most a map group holds",
                field=field,
            )
        out.append((board, lo, hi, column))
    return out


def map_group_from_grid(grid: MapGrid) -> dict[str, Any]:
    """A §9 map group of every hex of ``grid``, with nothing marked yet."""
    placed = _placed(grid)
    k = (placed[0][0].first_column_offset - placed[0][3]) % 2
    hexes: list[dict[str, Any]] = []
    taken: dict[tuple[int, int], str] = {}
    for i, (board, lo, hi, column) in enumerate(placed):
        shift = (column, board.row, k)
        for hex_id, q, r in _hexes(
            board.board, lo, hi, board.rows, board.first_column_offset, shift
        ):
            if max(abs(q), abs(r)) > MAX_COORD:
                field = f"boards.{i}" if len(placed) > 1 else "columns"
                raise InvalidInput(
                    f"{field}: its hex {hex_id} lies at q={q}, r={r}, beyond the "
                    f"{MAX_COORD:,} a map group's coordinates reach",
                    field=field,
                )
            other = taken.setdefault((q, r), hex_id)
            if other != hex_id:
                raise InvalidInput(
                    f"boards.{i}: its hex {hex_id} lies where {other} is; boards must not "
                    "overlap (list the next board from column B, or set its column or row)",
                    field=f"boards.{i}",
                )
            hexes.append({"hex": hex_id, "q": q, "r": r})
    return {
        "id": grid.id,
        "title": grid.title,
        "hexes": hexes,
        "entry_areas": [],
        "hq": {},
        "initial_control": {},
    }


def parse_rows(text: str) -> list[int]:
    """``"1-10"`` (the command line's spelling of ``rows``) -> ``[1, 10]``."""
    found = re.fullmatch(r"\s*([0-9]{1,3})\s*-\s*([0-9]{1,3})\s*", text)
    if found is None:
        raise ValueError(f"{text!r} is not a row range such as 1-10")
    return [int(found[1]), int(found[2])]
