"""``POST /v1/definition-tools/vasl-board`` (DESIGN §15) over REST, from the
shell (``cgledger definition map-from-vasl``) and through the Python client:
a board archive as the body or as a form's part ``file``, 422s naming the
body and the entry, and a body limit of its own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import vasl_boards as vb
from conftest import assert_problem, ok
from fastapi.testclient import TestClient
from live import serving

from cgledger.api.app import create_app
from cgledger.cli import main
from cgledger.client import ApiError, Client
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.vasl_board import map_group_of
from cgledger.settings import Settings

pytestmark = pytest.mark.shared_app

URL = "/v1/definition-tools/vasl-board"
ZIP = {"content-type": "application/zip"}
CELLS = {"A1": (1, vb.CODE["Stone Building, 2 Level"]), "B1": (0, vb.CODE["Water"])}


def _hexes(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {h["hex"]: h for h in map_group_of(answer)["hexes"]}


def test_the_archive_as_the_body(client: TestClient) -> None:
    r = client.post(URL, content=vb.board(cells=CELLS), headers=ZIP, params={"id": "St"})
    answer = ok(r)
    # DESIGN §15: a map group (its fields at the top), its hexes with what
    # LOSData gives; the import's report beside them.
    assert set(answer) == {
        "id", "title", "hexes", "entry_areas", "hq", "initial_control",
        "board", "readings", "notes",
    }  # fmt: skip
    assert map_group_of(answer)["id"] == "St"
    assert _hexes(answer)["A1"] == {
        "hex": "A1", "q": 0, "r": 1, "levels": [0, 1, 2],
        "ground_level": 1, "terrain": "Stone Building, 2 Level",
    }  # fmt: skip
    assert _hexes(answer)["B1"]["enterable"] is False
    reading = next(x for x in answer["readings"] if x["hex"] == "A1")
    assert reading == {
        "hex": "A1",
        "ground_level": 1,
        "terrain_code": vb.CODE["Stone Building, 2 Level"],
        "terrain": "Stone Building, 2 Level",
        "stairway": False,
    }
    REGISTRY["abtf"].definition.model_validate({"map_groups": [map_group_of(answer)]})


def test_the_archive_as_a_forms_part_with_the_terrain_types_apart(client: TestClient) -> None:
    archive = vb.board(cells=CELLS, terrain=False)
    files = {
        "file": ("bdT1.zip", archive, "application/zip"),
        "terrain_types": ("SharedBoardMetadata.xml", vb.terrain_xml(), "text/xml"),
    }
    answer = ok(client.post(URL, files=files, params={"title": "Board T1"}))
    assert map_group_of(answer)["title"] == "Board T1"
    assert answer["board"]["terrain_types"] == len(vb.TERRAIN)
    assert _hexes(answer)["B1"]["enterable"] is False
    alone = ok(client.post(URL, files={"file": ("b.zip", archive, "application/zip")}))
    assert alone["board"]["terrain_types"] == 0
    assert "levels" not in _hexes(alone)["A1"]


@pytest.mark.parametrize(
    ("send", "field", "why"),
    [
        ({"content": b"not a zip", "headers": ZIP}, "zip", "not a zip archive"),
        ({"content": b""}, "zip", "not a zip archive"),
        (
            {"content": vb.archive({"LOSData": b"x"}), "headers": ZIP},
            "zip",
            "holds no BoardMetadata.xml",
        ),
        (
            {"files": {"archive": ("b.zip", b"PK", "application/zip")}},
            "form-data.file",
            "send the board archive as the part 'file'",
        ),
        (
            {"files": {"file": ("b.zip", b"nope", "application/zip")}},
            "form-data.file",
            "not a zip archive",
        ),
        (
            {
                "files": {
                    "file": ("b.zip", vb.board(terrain=False), "application/zip"),
                    "terrain_types": ("t.xml", b"<x/>", "text/xml"),
                }
            },
            "form-data.terrain_types",
            "holds no terrainType",
        ),
        (
            {"content": b"--x\r\n", "headers": {"content-type": "multipart/form-data"}},
            "form-data",
            "names no boundary",
        ),
        (
            {
                "content": b"no parts",
                "headers": {"content-type": "multipart/form-data; boundary=x"},
            },
            "form-data",
            "its boundary is not in it",
        ),
        (
            {
                "content": b"--x\r\nContent-Type: text/plain\r\n\r\nhi\r\n--x--\r\n",
                "headers": {"content-type": "multipart/form-data; boundary=x"},
            },
            "form-data",
            "no Content-Disposition naming it",
        ),
        (
            {
                "content": b"--x\r\nContent-Disposition: form-data; name=file\r\n\r\nhi",
                "headers": {"content-type": "multipart/form-data; boundary=x"},
            },
            "form-data",
            "does not end with a boundary",
        ),
    ],
)
def test_what_it_cannot_read_is_a_422_naming_the_body(
    client: TestClient, send: dict[str, Any], field: str, why: str
) -> None:
    body = assert_problem(client.post(URL, **send), 422)
    assert body["field"] == field
    assert why in body["detail"], body["detail"]
    assert "errors" not in body


def test_a_bad_id_is_refused_before_the_archive_is_read(client: TestClient) -> None:
    body = assert_problem(client.post(URL, content=b"x", headers=ZIP, params={"id": "a b"}), 422)
    assert body["errors"][0]["field"].endswith("id")


def test_the_route_has_a_body_limit_of_its_own(tmp_path: Path) -> None:
    archive = vb.board(cells=CELLS)
    small = Settings(data_dir=tmp_path, max_body_bytes=1000, max_archive_bytes=len(archive) + 10)
    with TestClient(create_app(small)) as c:
        ok(c.post(URL, content=archive, headers=ZIP))
        assert_problem(c.post("/v1/definition-tools/map-group", content=b" " * 2000), 413)
        too_big = archive + bytes(20)
        body = assert_problem(c.post(URL, content=too_big, headers=ZIP), 413)
        assert str(len(archive) + 10) in body["detail"]


def test_the_document_says_what_the_route_takes(client: TestClient) -> None:
    from cgledger.api.openapi import BODY_VALUES_FROM, VALUES_MARK

    op = client.get("/openapi.json").json()["paths"][URL]["post"]
    content = op["requestBody"]["content"]
    assert set(content) == {"application/zip", "multipart/form-data"}
    for media, schema in content.items():
        assert schema["schema"][VALUES_MARK] == BODY_VALUES_FROM[media]
    assert content["multipart/form-data"]["schema"]["required"] == ["file"]
    assert {"422", "413"} <= set(op["responses"])
    assert {p["name"] for p in op["parameters"]} == {"id", "title"}


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["definition", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = tmp_path / "bdT1.zip"
    archive.write_bytes(vb.board(cells=CELLS, terrain=False))
    terrain = tmp_path / "SharedBoardMetadata.xml"
    terrain.write_bytes(vb.terrain_xml())
    code, out, err = _run(capsys, "map-from-vasl", str(archive), "--id", "T1")
    assert code == 0
    answer = json.loads(out)
    assert map_group_of(answer)["id"] == "T1"
    assert "note: no terrain types" in err
    # The hexes one to a line, in the map group too.
    assert '\n    {"hex": "A1", "q": 0, "r": 1, "ground_level": 1}' in out
    code, out, err = _run(
        capsys, "map-from-vasl", str(archive), "--terrain-types", str(terrain), "--map-group"
    )
    assert (code, err) == (0, "")
    group = json.loads(out)
    assert group["hexes"][0] == {
        "hex": "A1", "q": 0, "r": 1, "levels": [0, 1, 2],
        "ground_level": 1, "terrain": "Stone Building, 2 Level",
    }  # fmt: skip
    REGISTRY["kgp"].definition.model_validate({"map_groups": [group]})
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"not a zip")
    code, out, err = _run(capsys, "map-from-vasl", str(bad))
    assert (code, out) == (1, "")
    assert (
        err
        == f"cgledger definition map-from-vasl: {bad}: not a zip archive (File is not a zip file)\n"
    )
    code, _, err = _run(capsys, "map-from-vasl", str(tmp_path / "none.zip"))
    assert code == 1
    assert "cannot read" in err


def test_the_python_client(tmp_path: Path) -> None:
    with serving(Settings(data_dir=tmp_path / "data")) as base, Client(base) as api:
        answer = api.map_group_from_vasl(vb.board(cells=CELLS), id="St", title="Stoumont")
        assert (answer.id, answer.title) == ("St", "Stoumont")
        assert answer.hexes[0].terrain == "Stone Building, 2 Level"
        assert answer.board.layout == "normal"
        assert answer.readings[0].terrain == "Stone Building, 2 Level"
        with pytest.raises(ApiError) as refused:
            api.map_group_from_vasl(b"nope")
        assert refused.value.status == 422
