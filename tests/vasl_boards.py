"""VASL board archives made by the tests, in VASL's format (DESIGN §15):
a zip of ``BoardMetadata.xml``, ``LOSData`` (as Java writes it:
``cgledger.domain.vasl_losdata.encode``) and, if asked, terrain types in the
form of VASL's ``SharedBoardMetadata.xml``. The terrain codes are the tests'
own: the importer reads them from the terrain types sent, never from a table
of its own."""

from __future__ import annotations

import io
import math
import zipfile
from collections.abc import Iterable, Mapping
from xml.sax.saxutils import quoteattr

from cgledger.domain import vasl_losdata
from cgledger.domain.vasl_grid import Grid, GridHex, hexes_of, layout_of, parse_metadata

#: (code, name, height, LOSCategory): names as VASL spells them, codes the tests'.
TERRAIN = [
    (3, "Open Ground", 0, "OPEN"),
    (5, "Water", 0, "WATER"),
    (6, "Shallow Water", 0, "WATER"),
    (7, "Woods", 1, "WOODS"),
    (11, "Stone Building", 1, "BUILDING"),
    (12, "Stone Building, 2 Level", 2, "BUILDING"),
    (13, "Wooden Building, 1 Level", 1, "BUILDING"),
    (14, "Stone Factory, 1.5 Level", 1, "FACTORY"),
    (15, "Stone Market Place", 1, "MARKETPLACE"),
]
CODE = {name: code for code, name, _, _ in TERRAIN}


def board_xml(
    width: int, height: int, *, buildings: Mapping[str, str] | None = None, **attrs: str
) -> bytes:
    """A ``BoardMetadata.xml``: its root's attributes, and ``buildingTypes``."""
    shown = {"name": "T1", "version": "6.1", "hasHills": "FALSE", "width": str(width)}
    shown |= {"height": str(height), **attrs}
    head = " ".join(f"{k}={quoteattr(v)}" for k, v in shown.items())
    types = "".join(
        f"<buildingType hexName={quoteattr(h)} buildingTypeName={quoteattr(n)} />"
        for h, n in (buildings or {}).items()
    )
    return (
        f'<?xml version="1.0"?>\n<!-- a test board -->\n<boardMetadata {head}>\n'
        f"<buildingTypes>{types}</buildingTypes>\n<colors />\n</boardMetadata>\n"
    ).encode()


def terrain_xml(kinds: Iterable[tuple[int, str, int, str]] = TERRAIN) -> bytes:
    """Terrain types as VASL's ``SharedBoardMetadata.xml`` holds them."""
    rows = "".join(
        f"<terrainType name={quoteattr(n)} typeCode={quoteattr(str(c))} isLOSObstacle='FALSE' "
        f"height={quoteattr(str(h))} LOSCategory={quoteattr(k)} />\n"
        for c, n, h, k in kinds
    )
    return (
        f"<sharedBoardMetadata><terrainTypes>\n{rows}</terrainTypes></sharedBoardMetadata>".encode()
    )


def grid_of(xml: bytes) -> Grid:
    return layout_of(parse_metadata(xml, "t"), "t")


def size_of(grid: Grid) -> tuple[int, int]:
    """A terrain grid holding every hex whole (the last column's right half
    and the last rows' lower halves may fall outside, as on VASL's boards)."""
    cells = list(hexes_of(grid))
    width = math.ceil(max(h.x for h in cells)) + 1
    height = math.ceil(max(h.y for h in cells) + grid.hex_height / 2)
    return width, height


def paint(
    grid: Grid,
    size: tuple[int, int],
    cells: Mapping[str, tuple[int, int]],
    *,
    ground: tuple[int, int] = (0, CODE["Open Ground"]),
    radius: int = 3,
    at: Mapping[str, tuple[float, float]] | None = None,
) -> bytearray:
    """Pixel bytes (elevation, code; x outer) of ``ground`` everywhere but a
    square of ``radius`` around each hex of ``cells``, painted its (elevation,
    code); ``at`` moves a hex's square by (dx, dy) pixels from its centre."""
    width, height = size
    pixels = bytearray(bytes((ground[0] & 0xFF, ground[1])) * (width * height))
    centres = {h.hex: h for h in hexes_of(grid)}
    for hex_id, (elevation, code) in cells.items():
        h: GridHex = centres[hex_id]
        dx, dy = (at or {}).get(hex_id, (0.0, 0.0))
        cx, cy = int(h.x + dx), int(h.y + dy)
        for x in range(max(cx - radius, 0), min(cx + radius + 1, width)):
            for y in range(max(cy - radius, 0), min(cy + radius + 1, height)):
                i = 2 * (x * height + y)
                pixels[i : i + 2] = bytes((elevation & 0xFF, code))
    return pixels


def los_data(
    grid: Grid,
    size: tuple[int, int],
    pixels: bytes,
    *,
    stairways: Iterable[str] = (),
    header: tuple[int, int] | None = None,
) -> bytes:
    """``LOSData`` of the board: ``header`` overrides its (width, height)."""
    stairs = set(stairways)
    marks = bytes(1 if h.hex in stairs else 0 for h in hexes_of(grid))
    width, height = header or (grid.width, grid.height)
    payload = vasl_losdata.payload_of(width, height, size, bytes(pixels), marks)
    return vasl_losdata.encode(vasl_losdata.LosData(width, height, *size, payload))


def archive(files: Mapping[str, bytes]) -> bytes:
    """A zip of ``files`` (name -> content), as a board archive is."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zipped:
        for name, data in files.items():
            zipped.writestr(name, data)
    return out.getvalue()


def board(
    width: int = 5,
    height: int = 4,
    *,
    cells: Mapping[str, tuple[int, int]] | None = None,
    stairways: Iterable[str] = (),
    terrain: bool = True,
    buildings: Mapping[str, str] | None = None,
    **attrs: str,
) -> bytes:
    """A whole archive: a board of ``width`` x ``height`` hexes (a small hex
    size unless ``attrs`` say otherwise), its LOSData painted with ``cells``
    and, with ``terrain``, the terrain types."""
    attrs = {"hexWidth": "20", "hexHeight": "24", "A1CenterX": "0", "A1CenterY": "12"} | attrs
    xml = board_xml(width, height, buildings=buildings, **attrs)
    grid = grid_of(xml)
    size = size_of(grid)
    files = {"BoardMetadata.xml": xml}
    files["LOSData"] = los_data(grid, size, paint(grid, size, cells or {}), stairways=stairways)
    if terrain:
        files["SharedBoardMetadata.xml"] = terrain_xml()
    return archive(files)
