"""A VASL board's grid, from its ``BoardMetadata.xml`` (DESIGN §15): which
hexes the board has, their ASL ids, their axial ``q``, ``r`` (§9) and where
their centres lie on the board's image (the pixels ``LOSData`` describes).

The metadata's root ``boardMetadata`` gives ``width`` and ``height`` in
hexes and, when the board is not a standard geomorphic one, the size of a
hex in pixels (``hexWidth``, ``hexHeight``), the centre of hex A1
(``A1CenterX``, ``A1CenterY``), ``altHexGrain`` and ``HexGridConfig``. Its
``buildingTypes`` name the building of some hexes (the board's author sets
them where VASL cannot tell a building's kind from the image's colours).

The layouts read, as VASL's own LOS code (``VASL.LOS.Map.Map``) lays them:

* ``normal``: a column of even index (A, C, ...) holds rows 1 to ``height``,
  one of odd index rows 0 to ``height``, half a hex higher (A1 touches B0
  and B1): a geomorphic board. A negative ``A1CenterY`` (a board whose rows
  continue another's, e.g. BFP's DW 2b) starts the rows that many hexes
  later; an ``A1CenterX`` of -901 (VASL's mark of the half boards 1a-9b)
  letters the columns from Q.
* ``equal_rows``: ``HexGridConfig`` ``TopLeftHalfHeightEqualRowCount`` (or
  an ``A1CenterY`` of 65, VASL's other mark of it): every column holds rows
  0 to ``height - 1``, a column of odd index half a hex lower (A0 is a half
  hex on the top edge; e.g. Red October).
* ``alternate``: ``altHexGrain``: the upper left hex is A0 and B1 is higher:
  a column of even index holds rows 0 to ``height``, one of odd index rows
  1 to ``height`` (as ``first_column_offset: 1`` of the grid tool). VASL's
  LOS code does not lay this grain out, so its ``LOSData`` is not read.

Any other ``HexGridConfig`` (VASL's others describe cropped boards), an
``A1CenterY`` of 0, or ``altHexGrain`` with a row offset or equal rows is a
layout this module does not know: refused, never guessed.

``q`` and ``r`` follow :mod:`cgledger.domain.hexes` (and the grid tool,
:mod:`cgledger.domain.map_grid`): ``q`` is the column's index in ASL
lettering (A = 0, so Q = 16), ``r = row - (q - q % 2) / 2``, or ``row -
(q + 1) // 2`` for the alternate grain.
"""

from __future__ import annotations

import math
import re

# Read only after a DTD is refused (``xml_root``): no entity can expand.
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final, Literal
from xml.parsers import expat

from cgledger.domain.definition_types import MAX_HEXES
from cgledger.domain.errors import InvalidInput
from cgledger.domain.hexes import column_letters

__all__ = [
    "BoardMetadata",
    "Grid",
    "GridHex",
    "Layout",
    "hexes_of",
    "layout_of",
    "parse_metadata",
    "xml_root",
]

Layout = Literal["normal", "equal_rows", "alternate"]

#: VASL's standard geomorphic board (``BoardArchive.GEO_*``): 1,800 x 645
#: pixels for 33 x 10 hexes, A1's centre on the left edge, half a hex down.
GEO_HEX_WIDTH: Final = 1800 / 32
GEO_HEX_HEIGHT: Final = 645 / 10
GEO_A1_Y: Final = GEO_HEX_HEIGHT / 2
#: ``A1CenterX`` of the half boards 1a-9b, whose columns are lettered from Q.
HALF_BOARD_X: Final = -901.0
HALF_BOARD_FIRST_COLUMN: Final = 16
#: ``A1CenterY`` that VASL reads as the equal-rows layout.
EQUAL_ROWS_Y: Final = 65.0
EQUAL_ROWS_CONFIG: Final = "toplefthalfheightequalrowcount"
MAX_WIDTH, MAX_HEIGHT = 200, 500
#: The highest row number a hex id may have (as the grid tool's).
MAX_ROW = 999
_TRUE, _FALSE = ("true", "on", "yes", "1"), ("false", "off", "no", "0")
_NUMBER = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$")


@dataclass(frozen=True)
class BoardMetadata:
    """What this tool reads of ``BoardMetadata.xml``; ``None``: not given."""

    width: int
    height: int
    name: str | None = None
    version: str | None = None
    hex_width: float | None = None
    hex_height: float | None = None
    a1_x: float | None = None
    a1_y: float | None = None
    alt_grain: bool = False
    grid_config: str | None = None
    #: ``buildingTypes``: hex id -> building type name, in the file's order.
    building_types: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class GridHex:
    """A hex of the board: its id, axial place, its column's index on the
    board and its index in the column (``LOSData``'s order), and its
    centre in pixels."""

    hex: str
    q: int
    r: int
    column: int
    index: int
    x: float
    y: float


@dataclass(frozen=True)
class Grid:
    """A board's layout: how many hexes each column holds and how they are named."""

    layout: Layout
    width: int
    height: int
    hex_width: float
    hex_height: float
    a1_x: float
    a1_y: float
    first_column: int
    row_offset: int

    def rows(self, column: int) -> int:
        """How many hexes column ``column`` (its index on the board) holds."""
        if self.layout == "equal_rows":
            return self.height
        odd = column % 2
        return self.height + (1 - odd if self.layout == "alternate" else odd)

    def count(self) -> int:
        return sum(self.rows(c) for c in range(self.width))


class _Dtd(Exception):
    pass


def _no_dtd(text: bytes, where: str) -> None:
    """Refuse a document type declaration, in whatever encoding the file is
    (expat decodes it first, so UTF-16 hides nothing): expat stops at the
    declaration, before any entity is defined or expanded."""

    def refuse(*_: object) -> None:
        raise _Dtd

    scan = expat.ParserCreate()
    scan.StartDoctypeDeclHandler = refuse
    scan.EntityDeclHandler = refuse
    try:
        scan.Parse(text, True)
    except _Dtd:
        raise InvalidInput(
            f"{where}: a document type declaration is not read", field=where
        ) from None
    except expat.ExpatError:
        return  # not well-formed: ElementTree says where


def xml_root(data: bytes, where: str) -> ET.Element:
    """The root element of an XML file, refusing a DTD (so no entity can
    expand) and naming the line and column of what is not well-formed. An
    XML 1.1 declaration (VASL's parser takes it) is read as 1.0."""
    text = re.sub(rb"^(\s*<\?xml\s+version\s*=\s*[\"'])1\.1", rb"\g<1>1.0", data)
    try:
        _no_dtd(text, where)
        return ET.fromstring(text)  # noqa: S314 (no DTD: see _no_dtd)
    except ET.ParseError as exc:
        line, column = exc.position
        raise InvalidInput(
            f"{where}: not well-formed XML at line {line}, column {column + 1}", field=where
        ) from None


def _attr(root: ET.Element, name: str) -> str | None:
    value = root.get(name)
    return None if value is None else value.strip()


def _number(root: ET.Element, name: str, where: str) -> float | None:
    value = _attr(root, name)
    if value is None:
        return None
    if not _NUMBER.match(value) or not math.isfinite(float(value)):
        raise InvalidInput(f"{where}: {name}={value[:40]!r} is not a number", field=where)
    return float(value)


def _whole(root: ET.Element, name: str, where: str, top: int) -> int:
    value = _attr(root, name)
    if value is None:
        raise InvalidInput(f"{where}: boardMetadata has no {name} (in hexes)", field=where)
    if not re.fullmatch(r"[+-]?[0-9]{1,9}", value) or not 1 <= int(value) <= top:
        raise InvalidInput(
            f"{where}: {name}={value[:40]!r} is not a whole number of hexes from 1 to {top}",
            field=where,
        )
    return int(value)


def parse_metadata(data: bytes, where: str) -> BoardMetadata:
    """``BoardMetadata.xml``, read as VASL reads it (``BoardMetadata``)."""
    root = xml_root(data, where)
    if root.tag != "boardMetadata":
        raise InvalidInput(
            f"{where}: its root element is <{root.tag[:40]}>, not <boardMetadata>", field=where
        )
    grain = (_attr(root, "altHexGrain") or "false").lower()
    if grain not in _TRUE + _FALSE:
        raise InvalidInput(f"{where}: altHexGrain={grain[:40]!r} is not true or false", field=where)
    size = {n: _number(root, n, where) for n in ("hexWidth", "hexHeight")}
    for name, value in size.items():
        if value is not None and not 1 <= value <= 10_000:
            raise InvalidInput(
                f"{where}: {name}={value:g} is not a hex size in pixels", field=where
            )
    buildings: dict[str, str] = {}
    for element in root.iter("buildingType"):
        hex_id, kind = _attr(element, "hexName"), _attr(element, "buildingTypeName")
        if hex_id and kind:
            buildings[hex_id] = kind
    return BoardMetadata(
        width=_whole(root, "width", where, MAX_WIDTH),
        height=_whole(root, "height", where, MAX_HEIGHT),
        name=_attr(root, "name"),
        version=_attr(root, "version"),
        hex_width=size["hexWidth"],
        hex_height=size["hexHeight"],
        a1_x=_number(root, "A1CenterX", where),
        a1_y=_number(root, "A1CenterY", where),
        alt_grain=grain in _TRUE,
        grid_config=_attr(root, "HexGridConfig") or None,
        building_types=buildings,
    )


def layout_of(meta: BoardMetadata, where: str) -> Grid:
    """The board's layout, or an ``InvalidInput`` saying which of its
    metadata makes a layout this module does not know."""
    config = (meta.grid_config or "normal").lower()
    a1_y = GEO_A1_Y if meta.a1_y is None else meta.a1_y
    hex_height = meta.hex_height or GEO_HEX_HEIGHT
    layout: Layout = "normal"
    if config == EQUAL_ROWS_CONFIG or a1_y == EQUAL_ROWS_Y:
        layout = "equal_rows"
    elif config != "normal":
        shown = (meta.grid_config or "")[:60]
        raise InvalidInput(
            f"{where}: HexGridConfig={shown!r} is a layout this tool does not "
            "read (it reads Normal and TopLeftHalfHeightEqualRowCount); make the map group "
            "with POST /v1/definition-tools/map-group instead",
            field=where,
        )
    if a1_y == 0:
        raise InvalidInput(
            f"{where}: A1CenterY=0 (a top left hex of half height) is a layout this tool does "
            "not read; make the map group with POST /v1/definition-tools/map-group instead",
            field=where,
        )
    row_offset = int(-a1_y / hex_height) + 1 if a1_y < 0 and layout == "normal" else 0
    if row_offset + meta.height > MAX_ROW:
        raise InvalidInput(
            f"{where}: A1CenterY={a1_y:g} starts the rows at {row_offset}: past row {MAX_ROW}",
            field=where,
        )
    if meta.alt_grain:
        if layout != "normal" or row_offset:
            raise InvalidInput(
                f"{where}: altHexGrain with {'equal rows' if row_offset == 0 else 'A1CenterY < 0'}"
                " is a layout this tool does not read; make the map group with POST "
                "/v1/definition-tools/map-group instead",
                field=where,
            )
        layout = "alternate"
    half_board = meta.a1_x == HALF_BOARD_X
    if half_board and meta.width > 36:
        raise InvalidInput(
            f"{where}: a half board (A1CenterX=-901) of {meta.width} columns: VASL letters "
            "only 36 from Q",
            field=where,
        )
    grid = Grid(
        layout=layout,
        width=meta.width,
        height=meta.height,
        hex_width=meta.hex_width or GEO_HEX_WIDTH,
        hex_height=hex_height,
        a1_x=max(meta.a1_x or 0.0, 0.0),
        a1_y=a1_y,
        first_column=HALF_BOARD_FIRST_COLUMN if half_board else 0,
        row_offset=row_offset,
    )
    if grid.count() > MAX_HEXES:
        raise InvalidInput(
            f"{where}: {meta.width} x {meta.height} hexes: more than the {MAX_HEXES:,} a map "
            "group holds",
            field=where,
        )
    return grid


def hexes_of(grid: Grid) -> Iterator[GridHex]:
    """Every hex of the board, column by column, top to bottom (the order
    of ``LOSData``'s stairway bytes), with its centre as VASL places it."""
    half = grid.hex_height / 2
    for c in range(grid.width):
        q = grid.first_column + c
        letters = column_letters(q)
        x = grid.a1_x + grid.hex_width * c
        odd = c % 2
        for i in range(grid.rows(c)):
            if grid.layout == "equal_rows":
                row, y = i, grid.hex_height * i + half * odd
                r = row - (q - q % 2) // 2
            elif grid.layout == "alternate":
                row = i + odd
                y, r = grid.hex_height * row - half * odd, row - (q + 1) // 2
            else:
                row = i + grid.row_offset + (1 - odd)
                top = grid.a1_y if grid.a1_y > 0 else half
                y, r = top + grid.hex_height * i - half * odd, row - (q - q % 2) // 2
            yield GridHex(f"{letters}{row}", q, r, c, i, x, y)
