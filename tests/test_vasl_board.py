"""A map group from a VASL board archive (DESIGN §15,
``cgledger.domain.vasl_board``), with archives the tests build in VASL's
format (tests/vasl_boards.py): each hex's ground level, terrain, stairway
and building levels where LOSData gives them, ``enterable: false`` on water,
the metadata's building types, what it notes, and a 422 saying why for an
archive it cannot read."""

from __future__ import annotations

import gzip
import io
import zipfile
import zlib
from typing import Any

import pytest
import vasl_boards as vb
from hypothesis import given
from hypothesis import strategies as st

from cgledger.domain.errors import InvalidInput
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.vasl_board import building_levels, import_board, map_group_of, terrain_types

C = vb.CODE


def _hexes(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {h["hex"]: h for h in map_group_of(answer)["hexes"]}


def _readings(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["hex"]: r for r in answer["readings"]}


def _notes(answer: dict[str, Any]) -> str:
    return "\n".join(answer["notes"])


def test_each_hex_gets_its_ground_level_terrain_and_levels() -> None:
    cells = {
        "A1": (1, C["Stone Building, 2 Level"]),
        "A2": (0, C["Stone Building"]),
        "B1": (0, C["Water"]),
        "B2": (0, C["Shallow Water"]),
        "C1": (-1, C["Woods"]),
        "C2": (2, C["Stone Factory, 1.5 Level"]),
        "C3": (2, C["Stone Factory, 1.5 Level"]),
        "D1": (0, C["Stone Market Place"]),
        "E1": (3, C["Wooden Building, 1 Level"]),
    }
    answer = import_board(vb.board(cells=cells, stairways=["A1", "C3"]))
    hexes, readings = _hexes(answer), _readings(answer)
    assert len(hexes) == 3 * 4 + 2 * 5 == len(readings)
    assert readings["A1"] == {
        "hex": "A1",
        "ground_level": 1,
        "terrain_code": C["Stone Building, 2 Level"],
        "terrain": "Stone Building, 2 Level",
        "stairway": True,
    }
    assert readings["C1"]["ground_level"] == -1  # a signed byte
    assert readings["E1"]["ground_level"] == 3
    assert readings["A3"]["terrain"] == "Open Ground"
    levels = {h: hexes[h].get("levels", [0]) for h in hexes}
    assert levels["A1"] == [0, 1, 2]
    assert levels["A2"] == [0]  # a single-storey building
    assert levels["C2"] == [0]  # a factory without a stairway
    assert levels["C3"] == [0, 1]  # ... and with one
    assert levels["D1"] == [0, 1]
    assert levels["E1"] == [0, 1]
    assert {h for h in hexes if hexes[h].get("enterable") is False} == {"B1"}
    assert "levels" not in hexes["A3"]
    assert "enterable" not in hexes["A3"]
    assert answer["board"] == {
        "name": "T1",
        "version": "6.1",
        "width": 5,
        "height": 4,
        "layout": "normal",
        "hex_size": [20.0, 24.0],
        "a1_center": [0.0, 12.0],
        "los_data": {"grid": [81, 108]},
        "terrain_types": len(vb.TERRAIN),
    }
    assert answer["notes"][0].startswith("left to the players: Strategic Locations")
    # The map group is one of §9 as a definition holds it.
    REGISTRY["kgp"].definition.model_validate({"map_groups": [map_group_of(answer)]})


def test_a_building_that_misses_the_centre_is_found_as_vasl_finds_it() -> None:
    """Not a building at the centre: the first hexside's building (just inside
    its midpoint), else the last of the four points 5 pixels out (+x, -x,
    +y, -y)."""
    xml = vb.board_xml(3, 3, hexWidth="20", hexHeight="24", A1CenterX="0", A1CenterY="12")
    grid = vb.grid_of(xml)
    size = vb.size_of(grid)
    pixels = vb.paint(
        grid,
        size,
        {"A2": (0, C["Stone Building, 2 Level"]), "B2": (0, C["Wooden Building, 1 Level"])},
        radius=0,
        at={"A2": (0.0, -11.0), "B2": (5.0, 0.0)},
    )
    centre = {h.hex: h for h in vb.hexes_of(grid)}
    height = size[1]
    for hex_id, (dx, dy), name in (
        ("A2", (0, 11), "Wooden Building, 1 Level"),  # the south hexside: the north one wins
        ("B2", (0, -5), "Stone Market Place"),  # -y, after +x: it wins
    ):
        x, y = int(centre[hex_id].x + dx), int(centre[hex_id].y + dy)
        pixels[2 * (x * height + y) + 1] = C[name]
    files = {"BoardMetadata.xml": xml, "LOSData": vb.los_data(grid, size, pixels)}
    answer = import_board(vb.archive(files | {"SharedBoardMetadata.xml": vb.terrain_xml()}))
    readings = _readings(answer)
    assert readings["A2"]["terrain"] == "Stone Building, 2 Level"
    assert _hexes(answer)["A2"]["levels"] == [0, 1, 2]
    assert readings["B2"]["terrain"] == "Stone Market Place"
    assert readings["B2"]["ground_level"] == 0
    assert readings["A1"]["terrain"] == "Open Ground"


def test_without_terrain_types_terrain_is_a_code_and_buildings_come_from_the_metadata() -> None:
    archive = vb.board(
        cells={"A1": (1, C["Stone Building, 2 Level"]), "B1": (0, C["Water"])},
        terrain=False,
        buildings={"C2": "Stone Building, 3 Level", "C3": "Wooden Building"},
    )
    answer = import_board(archive)
    readings, hexes = _readings(answer), _hexes(answer)
    assert readings["A1"] == {
        "hex": "A1",
        "ground_level": 1,
        "terrain_code": C["Stone Building, 2 Level"],
        "stairway": False,
    }
    assert "levels" not in hexes["A1"]
    assert "enterable" not in hexes["B1"]
    assert hexes["C2"]["levels"] == [0, 1, 2, 3]
    assert readings["C2"]["building_type"] == "Stone Building, 3 Level"
    assert "levels" not in hexes["C3"]
    assert answer["board"]["terrain_types"] == 0
    assert "no terrain types (SharedBoardMetadata.xml" in _notes(answer)
    # Given apart (as VASL's module, a zip holding the file, too), they name it.
    for apart in (vb.terrain_xml(), vb.archive({"SharedBoardMetadata.xml": vb.terrain_xml()})):
        named = import_board(archive, terrain=apart)
        assert _readings(named)["A1"]["terrain"] == "Stone Building, 2 Level"
        assert _hexes(named)["B1"]["enterable"] is False


def test_the_metadatas_building_types_win_and_what_disagrees_is_noted() -> None:
    archive = vb.board(
        cells={"A1": (0, C["Stone Building"]), "B1": (0, C["Stone Building, 2 Level"])},
        buildings={
            "A1": "Stone Building, 2 Level",
            "B1": "Stone Building, 2 Level",
            "C1": "Brick Tower",
            "Z9": "Stone Building",
        },
    )
    answer = import_board(archive)
    hexes, notes = _hexes(answer), _notes(answer)
    assert hexes["A1"]["levels"] == [0, 1, 2] == hexes["B1"]["levels"]
    assert "levels" not in hexes["C1"]
    assert (
        "LOSData's terrain is not the building BoardMetadata.xml names in A1 (Stone Building)"
        in notes
    )
    assert "B1" not in notes.split("names in ")[1].split(":")[0]
    assert "cannot give levels to: C1 (Brick Tower)" in notes
    assert "hexes the board does not have: Z9" in notes


def test_without_losdata_the_grid_and_building_types_are_read() -> None:
    xml = vb.board_xml(33, 10, buildings={"E4": "Stone Building, 2 Level"})
    answer = import_board(vb.archive({"BoardMetadata.xml": xml, "bd01.gif": b"GIF89a"}))
    assert len(map_group_of(answer)["hexes"]) == 346
    assert answer["readings"] == [{"hex": "E4", "building_type": "Stone Building, 2 Level"}]
    assert _hexes(answer)["E4"]["levels"] == [0, 1, 2]
    assert answer["board"]["los_data"] is None
    assert "holds no LOSData" in _notes(answer)


def test_the_alternate_grain_leaves_losdata_unread() -> None:
    xml = vb.board_xml(3, 2, altHexGrain="true", buildings={"B1": "Wooden Building, 1 Level"})
    grid = vb.grid_of(xml)
    size = vb.size_of(grid)
    los = vb.los_data(grid, size, vb.paint(grid, size, {}))
    answer = import_board(vb.archive({"BoardMetadata.xml": xml, "LOSData": los}))
    assert [h["hex"] for h in map_group_of(answer)["hexes"]][:3] == ["A0", "A1", "A2"]
    assert answer["readings"] == [{"hex": "B1", "building_type": "Wooden Building, 1 Level"}]
    assert "does not lay out the alternate hex grain" in _notes(answer)


def test_equal_rows_read_losdata_with_a_hex_less_in_odd_columns() -> None:
    archive = vb.board(
        4,
        3,
        cells={"B2": (2, C["Woods"])},
        stairways=["D2"],
        HexGridConfig="TopLeftHalfHeightEqualRowCount",
        A1CenterY="65",
    )
    answer = import_board(archive)
    readings = _readings(answer)
    assert len(readings) == 12
    assert readings["B2"]["terrain"] == "Woods"
    assert readings["B2"]["ground_level"] == 2
    assert [r["hex"] for r in answer["readings"] if r["stairway"]] == ["D2"]


def test_the_id_title_and_a_board_in_a_folder() -> None:
    inner = zipfile.ZipFile(io.BytesIO(vb.board()))
    moved = vb.archive({f"bdT1/{n}": inner.read(n) for n in inner.namelist()})
    answer = import_board(moved, map_id="St", title="Stoumont")
    assert (map_group_of(answer)["id"], map_group_of(answer)["title"]) == ("St", "Stoumont")
    assert answer["board"]["terrain_types"] == len(vb.TERRAIN)
    plain = import_board(
        vb.archive({"BoardMetadata.xml": b"<boardMetadata width='2' height='2'/>"})
    )
    assert (map_group_of(plain)["id"], map_group_of(plain)["title"]) == ("vasl", "VASL board vasl")
    odd = vb.archive({"BoardMetadata.xml": vb.board_xml(2, 2, name="BFP DW 2b")})
    assert map_group_of(import_board(odd))["id"] == "BFP-DW-2b"
    with pytest.raises(InvalidInput) as refused:
        import_board(moved, map_id="no spaces")
    assert refused.value.field == "id"


def _corrupt(archive: bytes) -> bytes:
    """The archive with a byte of LOSData's compressed data changed (its CRC fails)."""
    info = zipfile.ZipFile(io.BytesIO(archive)).getinfo("LOSData")
    at = info.header_offset + 30 + len(info.filename) + 10
    return archive[:at] + bytes([archive[at] ^ 0xFF]) + archive[at + 1 :]


def _board_with(los: bytes) -> bytes:
    xml = vb.board_xml(5, 4, hexWidth="20", hexHeight="24", A1CenterY="12")
    return vb.archive({"BoardMetadata.xml": xml, "LOSData": los})


def _los(**kw: Any) -> bytes:
    grid = vb.grid_of(vb.board_xml(5, 4, hexWidth="20", hexHeight="24", A1CenterY="12"))
    size = vb.size_of(grid)
    return vb.los_data(grid, size, vb.paint(grid, size, {}), **kw)


ARCHIVES = [
    ("empty", b"", "zip", "not a zip archive"),
    ("not a zip", b"GIF89a and more", "zip", "not a zip archive"),
    ("a corrupt zip", vb.board()[:200], "zip", "not a zip archive"),
    ("a damaged entry", _corrupt(vb.board()), "zip.LOSData", "cannot be read"),
    ("no metadata", vb.archive({"LOSData": _los()}), "zip", "holds no BoardMetadata.xml"),
    (
        "a VASL 5 board",
        vb.archive({"data": b"x", "bd01.gif": b"GIF"}),
        "zip",
        "a VASL 5 board, with only 'data', is not read",
    ),
    (
        "two boards",
        vb.archive({"a/BoardMetadata.xml": b"x", "b/BoardMetadata.xml": b"x"}),
        "zip",
        "several BoardMetadata.xml",
    ),
    (
        "bad metadata",
        vb.archive({"BoardMetadata.xml": b"<boardMetadata"}),
        "zip.BoardMetadata.xml",
        "not well-formed",
    ),
    ("truncated LOSData", _board_with(_los()[:-30]), "zip.LOSData", "cut short"),
    (
        "LOSData of another board",
        _board_with(_los(header=(5, 5))),
        "zip.LOSData",
        "header says the board is 5 x 5 hexes; BoardMetadata.xml says 5 x 4",
    ),
    ("LOSData not gzip", _board_with(b"\x00" * 40), "zip.LOSData", "not gzip data"),
    (
        "terrain types without any",
        vb.archive(
            {
                "BoardMetadata.xml": vb.board_xml(2, 2),
                "SharedBoardMetadata.xml": b"<sharedBoardMetadata/>",
            }
        ),
        "zip.SharedBoardMetadata.xml",
        "holds no terrainType",
    ),
]


@pytest.mark.parametrize(
    ("archive", "field", "why"), [a[1:] for a in ARCHIVES], ids=[a[0] for a in ARCHIVES]
)
def test_an_archive_it_cannot_read_is_refused_saying_why(
    archive: bytes, field: str, why: str
) -> None:
    with pytest.raises(InvalidInput) as refused:
        import_board(archive)
    assert refused.value.field == field
    assert refused.value.detail.startswith(f"{field}: ")
    assert why in refused.value.detail, refused.value.detail


def test_a_losdata_whose_length_does_not_match_its_header() -> None:
    grid = vb.grid_of(vb.board_xml(5, 4, hexWidth="20", hexHeight="24", A1CenterY="12"))
    size = vb.size_of(grid)
    pixels = vb.paint(grid, size, {})
    short = vb.los_data(grid, size, pixels[:-2])
    with pytest.raises(InvalidInput) as refused:
        import_board(_board_with(short))
    assert refused.value.field == "zip.LOSData"
    needed = 16 + len(pixels) + 22
    assert f"holds {needed - 2:,} bytes, not the {needed:,} bytes its header needs" in (
        refused.value.detail
    )


@pytest.mark.parametrize(
    ("xml", "why"),
    [
        (b"<a><terrainType name='x' typeCode='300' height='0'/></a>", "no typeCode 0-255"),
        (b"<a><terrainType typeCode='3' height='0'/></a>", "no typeCode 0-255"),
        (
            b"<a><terrainType name='x' typeCode='3'/><terrainType name='y' typeCode='3'/></a>",
            "typeCode 3 is given twice ('x', 'y')",
        ),
        (b"PK\x05\x06" + bytes(18), "the zip holds no SharedBoardMetadata.xml"),
    ],
)
def test_bad_terrain_types_are_refused(xml: bytes, why: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        terrain_types(xml, "form-data.terrain_types")
    assert refused.value.field.startswith("form-data.terrain_types")
    assert why in refused.value.detail


@pytest.mark.parametrize(
    ("name", "kind", "stairway", "levels"),
    [
        ("Stone Building", None, False, [0]),
        ("Wooden Building", None, True, [0]),
        ("Stone Building, 1 Level", None, False, [0, 1]),
        ("Wooden Building, 4 Level", None, False, [0, 1, 2, 3, 4]),
        ("Stone Factory, 2.5 Level", None, True, None),  # no terrain type: not sized
        ("Stone Factory, 2.5 Level", (48, "FACTORY", 2), True, [0, 1, 2]),
        ("Stone Factory, 2.5 Level", (48, "FACTORY", 2), False, [0]),
        ("Huts", (99, "BUILDING", 1), False, [0]),
        ("Woods", (7, "WOODS", 1), False, None),
    ],
)
def test_building_levels(
    name: str, kind: tuple[int, str, int] | None, stairway: bool, levels: list[int] | None
) -> None:
    from cgledger.domain.vasl_board import TerrainType

    known = None if kind is None else TerrainType(kind[0], name, kind[2], kind[1])
    assert building_levels(name, known, stairway) == levels


BASE = vb.board(cells={"A1": (1, C["Stone Building, 2 Level"])}, stairways=["A1"])
FILES = ("BoardMetadata.xml", "LOSData", "SharedBoardMetadata.xml")
BASE_FILES = {n: zipfile.ZipFile(io.BytesIO(BASE)).read(n) for n in FILES}


def _damaged(data: bytes, spots: list[tuple[int, int]], cut: int | None) -> bytes:
    out = bytearray(data if cut is None else data[: cut % (len(data) + 1)])
    for at, value in spots:
        if out:
            out[at % len(out)] = value
    return bytes(out)


@given(
    entry=st.sampled_from([None, *FILES]),
    spots=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=4),
    cut=st.none() | st.integers(0, 10**6),
    inflated=st.booleans(),
)
def test_any_damage_is_refused_saying_why_never_a_crash(
    entry: str | None, spots: list[tuple[int, int]], cut: int | None, inflated: bool
) -> None:
    """The archive, or one of its entries (LOSData also as its inflated
    stream, gzip'd again), with bytes changed or cut: read, or refused with
    an ``InvalidInput``; no other exception."""
    if entry is None:
        archive = _damaged(BASE, spots, cut)
    else:
        content = BASE_FILES[entry]
        if entry == "LOSData" and inflated:
            stream = zlib.decompress(content, wbits=16 + zlib.MAX_WBITS)
            content = gzip.compress(_damaged(stream, spots, cut))
        else:
            content = _damaged(content, spots, cut)
        archive = vb.archive(BASE_FILES | {entry: content})
    field = None
    try:
        answer = import_board(archive)
    except InvalidInput as exc:
        field = exc.field or "(none)"
    else:
        assert map_group_of(answer)["hexes"]
    assert field is None or field.startswith("zip"), field


def test_unicode_digits_are_not_codes() -> None:
    with pytest.raises(InvalidInput, match="no typeCode 0-255"):
        terrain_types("<a><terrainType name='x' typeCode='²' height='0'/></a>".encode(), "t")
    xml = vb.board_xml(33, 10).replace(b'"33"', "'٣'".encode())
    with pytest.raises(InvalidInput, match="not a whole number"):
        import_board(vb.archive({"BoardMetadata.xml": xml}))
