"""What importing a VASL board archive costs at the size of a real map group.

    .venv/bin/python -m bench.vasl [--width 40] [--height 30] [--repeats 5] [--quick]

Builds a board archive in VASL's format (DESIGN §15): ``BoardMetadata.xml``
of ``width`` x ``height`` hexes (40 x 30: 1,220 hexes, about a real map
group) of VASL's standard hex size, with some buildingTypes; ``LOSData`` as
Java writes it (``cgledger.domain.vasl_losdata.encode``) over a terrain grid
of that many hexes' pixels (about 2,200 x 2,000), each hex painted its own
ground level and terrain; the terrain types; and an image of random bytes as
large as a real board's, which the importer never reads. Then times, as
medians: decoding LOSData alone, the whole import in-process
(``import_board``), and ``POST /v1/definition-tools/vasl-board`` through the
app in-process. Prints the sizes, the times and the target of issue 28: a
1,200-hex archive with LOSData imports in under 2 s.

A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import io
import math
import random
import tempfile
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path

from fastapi.testclient import TestClient

from bench.timing import median_s
from cgledger.api.app import create_app
from cgledger.domain import vasl_losdata
from cgledger.domain.vasl_board import MAX_PIXELS, import_board, map_group_of
from cgledger.domain.vasl_grid import hexes_of, layout_of, parse_metadata
from cgledger.settings import Settings

TARGET_S = 2.0
#: (code, name, height, category): the benchmark's own codes.
KINDS = [
    (1, "Open Ground", 0, "OPEN"),
    (2, "Woods", 1, "WOODS"),
    (3, "Stone Building, 2 Level", 2, "BUILDING"),
    (4, "Wooden Building", 1, "BUILDING"),
    (5, "Water", 0, "WATER"),
    (6, "Grain", 0, "OTHER"),
]
IMAGE_BYTES = 1_500_000


def build(width: int, height: int, seed: int = 28) -> tuple[bytes, bytes, int]:
    """The archive, its LOSData and how many hexes the board has."""
    rng = random.Random(seed)  # noqa: S311 - synthetic data, not secrets
    spots = [(chr(ord("A") + rng.randrange(26)), rng.randrange(1, height)) for _ in range(60)]
    buildings = "".join(
        f'<buildingType hexName="{c}{r}" buildingTypeName="Stone Building, 2 Level" />'
        for c, r in spots
    )
    xml = (
        f'<?xml version="1.0"?>\n<boardMetadata name="Bench" version="1" hasHills="TRUE" '
        f'width="{width}" height="{height}" hexWidth="56.25" hexHeight="64.5" '
        f'A1CenterX="0" A1CenterY="32.25"><buildingTypes>{buildings}</buildingTypes>'
        "</boardMetadata>"
    ).encode()
    grid = layout_of(parse_metadata(xml, "bench"), "bench")
    cells = list(hexes_of(grid))
    gw = math.ceil(max(h.x for h in cells)) + 1
    gh = math.ceil(max(h.y for h in cells) + grid.hex_height / 2)
    # Each hex its own (elevation, terrain): a pixel takes its column's nearest hex.
    paint = {(h.column, h.index): bytes((rng.randrange(4), rng.choice(KINDS)[0])) for h in cells}
    in_column: dict[int, list[tuple[float, int]]] = {}
    for h in cells:
        in_column.setdefault(h.column, []).append((h.y, h.index))
    columns = []
    for x in range(gw):
        c = min(round(x / grid.hex_width), grid.width - 1)
        by_y = sorted(in_column[c])
        parts, y = [], 0
        for k, (centre, index) in enumerate(by_y):
            end = gh if k + 1 == len(by_y) else math.ceil((centre + by_y[k + 1][0]) / 2)
            parts.append(paint[c, index] * max(end - y, 0))
            y = max(end, y)
        columns.append(b"".join(parts)[: 2 * gh])
    pixels = b"".join(columns)
    stairs = bytes(rng.random() < 0.05 for _ in cells)
    payload = vasl_losdata.payload_of(grid.width, grid.height, (gw, gh), pixels, stairs)
    los = vasl_losdata.encode(vasl_losdata.LosData(grid.width, grid.height, gw, gh, payload))
    terrain = "".join(
        f'<terrainType name="{n}" typeCode="{c}" height="{h}" LOSCategory="{k}" />'
        for c, n, h, k in KINDS
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr("BoardMetadata.xml", xml)
        zipped.writestr("LOSData", los)
        zipped.writestr(
            "SharedBoardMetadata.xml",
            f"<sharedBoardMetadata><terrainTypes>{terrain}</terrainTypes></sharedBoardMetadata>",
        )
        zipped.writestr("bdBench.gif", rng.randbytes(IMAGE_BYTES), zipfile.ZIP_STORED)
    return out.getvalue(), los, len(cells)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--width", type=int, default=40, help="columns of hexes")
    ap.add_argument("--height", type=int, default=30, help="rows of hexes")
    ap.add_argument("--repeats", type=int, default=5, help="runs per median")
    ap.add_argument("--quick", action="store_true", help="a smoke run: one run of each")
    args = ap.parse_args(argv)
    if args.quick:
        args.repeats = 1
    t0 = time.perf_counter()
    archive, los, count = build(args.width, args.height)
    built = time.perf_counter() - t0
    stream = vasl_losdata.decode(
        los,
        where="bench",
        stairway_bytes=lambda w, h: vasl_losdata.stairways(w, h, False),
        max_pixels=MAX_PIXELS,
    )
    print(
        f"board: {args.width} x {args.height} = {count} hexes; terrain grid "
        f"{stream.grid_width} x {stream.grid_height} pixels; LOSData {len(los):,} bytes "
        f"({len(stream.payload):,} decompressed); archive {len(archive):,} bytes "
        f"(built in {built:.2f} s)"
    )

    def decode() -> object:
        return vasl_losdata.decode(
            los,
            where="bench",
            stairway_bytes=lambda w, h: vasl_losdata.stairways(w, h, False),
            max_pixels=MAX_PIXELS,
        )

    answer = import_board(archive)
    assert len(map_group_of(answer)["hexes"]) == count
    rows = [("LOSData decode", median_s(decode, args.repeats))]
    whole = median_s(lambda: import_board(archive), args.repeats)
    rows.append(("import_board (in-process)", whole))
    with (
        tempfile.TemporaryDirectory() as data,
        TestClient(create_app(Settings(data_dir=Path(data)))) as client,
    ):

        def post() -> object:
            r = client.post(
                "/v1/definition-tools/vasl-board",
                content=archive,
                headers={"content-type": "application/zip"},
            )
            r.raise_for_status()
            return r

        rows.append(("POST /v1/definition-tools/vasl-board", median_s(post, args.repeats)))
    print(f"{'step':<40} {'median ms':>10}")
    for name, seconds in rows:
        print(f"{name:<40} {seconds * 1000:>10.1f}")
    http = rows[-1][1]
    verdict = "PASS" if http < TARGET_S else "MISS"
    print(
        f"target: a {count}-hex VASL archive with LOSData imports in under {TARGET_S:g} s: "
        f"{verdict} ({http * 1000:.0f} ms over HTTP)"
    )


if __name__ == "__main__":
    main()
