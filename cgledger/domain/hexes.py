"""Hex geometry of a Map Group (DESIGN §9) and ASL hex ids.

The contract stores axial coordinates ``q, r``. The neighbours of ``(q, r)``
are ``(q±1, r)``, ``(q, r±1)``, ``(q+1, r-1)`` and ``(q-1, r+1)``, and the
distance is ``(|Δq| + |Δr| + |Δq+Δr|) / 2``.

ASL maps name a hex by its column letters and row number (``J19``, ``GG10``),
optionally after a board number (``12J5``). Columns run top to bottom; the
columns are lettered A, B, ... Z, then AA, BB, ... ZZ, then AAA, ... (a
geomorphic board runs A to GG). Every second column sits half a hex lower
than the one before it: on a geomorphic board column A holds A1-A10 and
column B holds B0-B10, B0 on the top edge, so A1 touches B0 and B1. In the
axial frame this is the "odd-q" offset layout: column index ``c`` is ``q``,
and ``r = row - (c - c % 2) // 2``.

A map of several boards places each board by a whole number of columns and
rows (``Board``): its columns and rows are shifted by that offset before the
conversion. A column offset must be even, so that a board's column A stays a
column of column A's parity.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

__all__ = [
    "NEIGHBOURS",
    "Board",
    "column_index",
    "column_letters",
    "distance",
    "from_axial",
    "neighbours",
    "parse",
    "to_axial",
]

#: The six axial directions (DESIGN §9).
NEIGHBOURS: Final = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
_ID = re.compile(r"^(?:(?P<board>[0-9]{1,3}[a-z]?)[-:]?)?(?P<column>[A-Z]+)(?P<row>[0-9]{1,3})$")
_LETTERS = 26


@dataclass(frozen=True)
class Board:
    """Where a board lies on its map: its column A is map column ``column``,
    its row 0 is map row ``row`` (both whole numbers of hexes; ``column`` even)."""

    column: int = 0
    row: int = 0

    def __post_init__(self) -> None:
        if self.column % 2:
            raise ValueError(
                f"a board's column offset must be even ({self.column}): an odd one would "
                "give its column A the parity of column B"
            )


def column_index(letters: str) -> int:
    """``A`` -> 0, ``Z`` -> 25, ``AA`` -> 26, ``GG`` -> 32, ``AAA`` -> 52."""
    if not letters or not letters.isascii() or not letters.isupper() or len(set(letters)) != 1:
        raise ValueError(f"{letters!r} is not an ASL column (A-Z, AA-ZZ, AAA-...)")
    return _LETTERS * (len(letters) - 1) + ord(letters[0]) - ord("A")


def column_letters(index: int) -> str:
    """The inverse of :func:`column_index`."""
    if index < 0:
        raise ValueError(f"column {index} is left of column A")
    repeat, letter = divmod(index, _LETTERS)
    return chr(ord("A") + letter) * (repeat + 1)


def parse(hex_id: str) -> tuple[str | None, int, int]:
    """``"12J5"`` -> ``("12", 9, 5)``: the board (if named), the column index
    and the row number."""
    found = _ID.match(hex_id)
    if found is None:
        raise ValueError(f"{hex_id!r} is not an ASL hex id (e.g. J19, GG10, 12J5)")
    return found["board"], column_index(found["column"]), int(found["row"])


def to_axial(hex_id: str, boards: dict[str, Board] | None = None) -> tuple[int, int]:
    """The axial ``(q, r)`` of an ASL hex id. A board number needs its place
    in ``boards``; a hex id without one is on the map's own grid."""
    board, column, row = parse(hex_id)
    if board is not None:
        if boards is None or board not in boards:
            raise ValueError(f"{hex_id!r} is on board {board}, whose place is not given")
        column += boards[board].column
        row += boards[board].row
    return column, row - (column - column % 2) // 2


def from_axial(q: int, r: int) -> str:
    """The hex id, on the map's own grid, of axial ``(q, r)`` (inverse of
    :func:`to_axial` without boards)."""
    return f"{column_letters(q)}{r + (q - q % 2) // 2}"


def neighbours(q: int, r: int) -> list[tuple[int, int]]:
    return [(q + dq, r + dr) for dq, dr in NEIGHBOURS]


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2
