"""Review 28: the VASL board import (DESIGN §15) and its upload route under
hostile input. Each test names what it checks; those that fail are findings
(see the review's report)."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import pytest
import vasl_boards as vb
from conftest import assert_problem
from fastapi.testclient import TestClient

from cgledger.api.app import create_app
from cgledger.domain.errors import InvalidInput
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.vasl_board import import_board, map_group_of
from cgledger.service import uploads
from cgledger.settings import Settings

pytestmark = pytest.mark.shared_app

URL = "/v1/definition-tools/vasl-board"
ZIP = {"content-type": "application/zip"}
ATTRS = {"hexWidth": "20", "hexHeight": "24", "A1CenterX": "0", "A1CenterY": "12"}


def _takes(answer: dict[str, Any]) -> None:
    """The map group the import answers is one a CG definition takes (every
    ruleset): the tool answers what the players put in a definition."""
    for rs in REGISTRY.values():
        rs.definition.model_validate({"map_groups": [map_group_of(answer)]})


def _utf16_board(doctype: str) -> bytes:
    head = " ".join(f'{k}="{v}"' for k, v in ATTRS.items())
    text = (
        '<?xml version="1.0" encoding="UTF-16"?>\n'
        f"{doctype}\n"
        f'<boardMetadata name="&n;" version="6.1" width="5" height="4" {head}>'
        "</boardMetadata>\n"
    )
    return text.encode("utf-16")  # with its byte order mark, as expat reads it


def test_a_dtd_in_utf16_metadata_is_refused_as_in_utf8() -> None:
    """vasl_grid.xml_root refuses a DTD "anywhere in the file" by looking for
    b'<!doctype' in the bytes: in UTF-16 the bytes are b'<\\x00!\\x00d...',
    so the DTD is read and its entities expanded (bounded only by expat's
    amplification limits)."""
    xml = _utf16_board('<!DOCTYPE boardMetadata [<!ENTITY n "EXPANDED-BY-THE-DTD">]>')
    archive = vb.archive({"BoardMetadata.xml": xml})
    with pytest.raises(InvalidInput, match="document type declaration"):
        import_board(archive)  # today: read, the board named "EXPANDED-BY-THE-DTD"


def test_a_dtd_in_utf16_terrain_types_is_refused(client: TestClient) -> None:
    """The same through the route, in the terrain types sent apart."""
    terrain = (
        '<?xml version="1.0" encoding="UTF-16"?>\n'
        '<!DOCTYPE s [<!ENTITY n "Stone Building">]>\n'
        '<sharedBoardMetadata><terrainTypes><terrainType name="&n;" typeCode="11" '
        'height="1" LOSCategory="BUILDING"/></terrainTypes></sharedBoardMetadata>'
    ).encode("utf-16")
    body = (
        b'--B\r\nContent-Disposition: form-data; name="file"; filename="b.zip"\r\n'
        b"Content-Type: application/zip\r\n\r\n"
        + vb.board(cells={"A1": (0, 11)}, terrain=False)
        + b'\r\n--B\r\nContent-Disposition: form-data; name="terrain_types"\r\n\r\n'
        + terrain
        + b"\r\n--B--\r\n"
    )
    r = client.post(URL, content=body, headers={"content-type": "multipart/form-data; boundary=B"})
    assert_problem(r, 422)


@pytest.mark.parametrize("elevation", [120, 101, -11, -100])
def test_an_elevation_out_of_a_hexs_range_is_never_a_map_group_a_definition_refuses(
    elevation: int,
) -> None:
    """LOSData's elevation is a signed byte (-128..127); a hex's ground_level
    takes -10..100. The import must refuse the archive or answer a map group
    a definition takes, never one every campaign refuses."""
    archive = vb.board(cells={"A1": (elevation, vb.CODE["Open Ground"])})
    try:
        answer = import_board(archive)
    except InvalidInput:
        return
    _takes(answer)


@pytest.mark.parametrize(
    ("height", "category"),
    [(-1, "BUILDING"), (25, "BUILDING"), (150, "BUILDING"), (-2, "MARKETPLACE")],
)
def test_a_terrain_types_height_never_gives_levels_a_definition_refuses(
    height: int, category: str
) -> None:
    """A terrain type's height (-999..999 accepted) sizes a building's levels
    as range(height + 1): a negative height gives [] (a hex needs one level),
    a tall one more than 20 levels or a level over 99."""
    kinds = [*vb.TERRAIN, (40, "Odd Building", height, category)]
    xml = vb.board_xml(5, 4, **ATTRS)
    grid = vb.grid_of(xml)
    size = vb.size_of(grid)
    pixels = vb.paint(grid, size, {"A1": (0, 40)})
    archive = vb.archive(
        {
            "BoardMetadata.xml": xml,
            "LOSData": vb.los_data(grid, size, pixels),
            "SharedBoardMetadata.xml": vb.terrain_xml(kinds),
        }
    )
    try:
        answer = import_board(archive)
    except InvalidInput:
        return
    _takes(answer)


def _form(disposition: bytes) -> bytes:
    return b"--B\r\nContent-Disposition: " + disposition + b"\r\n\r\nx\r\n--B--\r\n"


def test_a_parts_long_content_disposition_is_read_in_linear_time() -> None:
    """uploads.form_parts reads a part's Content-Disposition with
    email.message.Message.get_param, whose _parseparam counts the quotes from
    the start of the value for every ';' inside a quoted string: quadratic.
    A 16 MiB archive route lets a client send megabytes of it; each request
    holds a worker thread for minutes."""
    semis = 100_000  # 100 KB of header: linear work is a millisecond
    disposition = b'form-data; name="' + b";" * semis + b'"'
    start = time.perf_counter()
    with contextlib.suppress(InvalidInput):
        uploads.form_parts(_form(disposition), "multipart/form-data; boundary=B")
    elapsed = time.perf_counter() - start
    assert elapsed < 1.0, f"{elapsed:.1f} s for a {semis:,}-byte Content-Disposition"


def test_the_route_answers_a_long_content_disposition_quickly(client: TestClient) -> None:
    body = _form(b'form-data; name="' + b";" * 100_000 + b'"')
    start = time.perf_counter()
    r = client.post(URL, content=body, headers={"content-type": "multipart/form-data; boundary=B"})
    elapsed = time.perf_counter() - start
    assert_problem(r, 422)
    assert elapsed < 1.5, f"{elapsed:.1f} s"


# ------------------------------------------------------------- sound checks


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("multipart/form-data", _form(b'form-data; name="file"')),  # no boundary
        ("multipart/form-data; boundary=", _form(b'form-data; name="file"')),
        ("multipart/form-data; boundary=B", b"no boundary in here"),
        ("multipart/form-data; boundary=B", b"--B\r\nContent-Disposition: form-data"),
        ("multipart/form-data; boundary=B", b"--Bjunk\r\n"),
        ("multipart/form-data; boundary=B", _form(b"form-data")),  # no name
        ("multipart/form-data; boundary=B", _form(b'form-data; name="other"')),
        ("multipart/form-data; boundary=B", b"--B--\r\n"),  # no part at all
        ("multipart/form-data; boundary=B", _form(b"form-data; name*=utf-8''file%ZZ")),
        ("multipart/form-data; boundary=B", _form(b"form-data; name*0=fi; name*1=le")),
        (
            "multipart/form-data; boundary=B",
            b"".join(_form(b'form-data; name="p%d"' % i)[:-4] for i in range(40)) + b"--\r\n",
        ),
        (  # a nested multipart as the file part
            "multipart/form-data; boundary=B",
            b'--B\r\nContent-Disposition: form-data; name="file"\r\n'
            b"Content-Type: multipart/mixed; boundary=C\r\n\r\n"
            b"--C\r\nContent-Type: application/zip\r\n\r\nPK\r\n--C--\r\n--B--\r\n",
        ),
        ('multipart/form-data; boundary="' + "x" * 300 + '"', b"--x"),
        ("application/zip", b"PK\x05\x06" + bytes(18)),  # an empty zip
        ("application/zip", b""),
        ("text/plain", b"hello"),
    ],
)
def test_odd_uploads_are_a_422_problem(client: TestClient, content_type: str, body: bytes) -> None:
    assert_problem(client.post(URL, content=body, headers={"content-type": content_type}), 422)


def test_a_chunked_body_over_the_archive_limit_is_a_413_problem(tmp_path: Path) -> None:
    """Without a Content-Length the body is counted as it streams."""
    small = Settings(data_dir=tmp_path, max_body_bytes=1000, max_archive_bytes=5000)

    def chunks() -> Any:
        for _ in range(20):
            yield b"x" * 1000

    with TestClient(create_app(small)) as c:
        r = c.post(URL, content=chunks(), headers=ZIP)
        assert "content-length" not in {k.lower() for k in r.request.headers}
        assert_problem(r, 413)
        r = c.post(
            "/v1/definition-tools/rg-chart",
            params={"ruleset": "kgp"},
            content=chunks(),
            headers={"content-type": "text/csv"},
        )
        assert_problem(r, 413)


def test_a_zip_bomb_entry_is_refused_by_its_declared_size() -> None:
    """A LOSData that inflates to gigabytes is refused before it is read:
    the zip's declared size, then the stream's header bound the inflation."""
    import io
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("BoardMetadata.xml", vb.board_xml(5, 4, **ATTRS))
        z.writestr("LOSData", bytes(50_000_000))
    start = time.perf_counter()
    with pytest.raises(InvalidInput, match="LOSData"):
        import_board(out.getvalue())
    assert time.perf_counter() - start < 5
