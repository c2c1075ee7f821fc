"""Routes of the authoring tools (DESIGN §15): a side's RG chart from CSV
and back, a map group from a grid, and one from a VASL board archive. No
token: they touch no campaign; ``cgledger.service.authoring`` answers."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Body as BodyParam
from fastapi import FastAPI, Query, Request
from fastapi.responses import Response as RawResponse
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from cgledger.api.models import ChartLines, MapGroupDraft, VaslBoardImport
from cgledger.domain.chart_csv import MAX_CSV_CHARS
from cgledger.domain.definition_types import ID_PATTERN
from cgledger.domain.map_grid import MapGrid
from cgledger.domain.requests import Body
from cgledger.service import authoring

CSV = "text/csv"
ZIP = "application/zip"
FORM = "multipart/form-data"
VASL_BOARD = "/v1/definition-tools/vasl-board"
#: The most bytes a board archive may have (the route's own body limit,
#: ``CGLEDGER_MAX_ARCHIVE_BYTES``, may be lower): the document's bound.
MAX_ARCHIVE_BYTES = 64 * 1024 * 1024
_BINARY = {"type": "string", "format": "binary", "maxLength": MAX_ARCHIVE_BYTES}
_ARCHIVE_BODY: dict[str, Any] = {
    "required": True,
    "description": "A VASL board archive: a zip holding BoardMetadata.xml and, where the board "
    "has one, LOSData (and, if wanted, VASL's SharedBoardMetadata.xml, whose terrain types "
    "name LOSData's codes). As the body itself (application/zip), or as the part 'file' of a "
    "form (multipart/form-data), whose part 'terrain_types' may carry the terrain types (the "
    "XML file, or VASL's module, a zip holding it).",
    "content": {
        ZIP: {"schema": _BINARY},
        FORM: {
            "schema": {
                "type": "object",
                "required": ["file"],
                "properties": {"file": _BINARY, "terrain_types": _BINARY},
                "additionalProperties": False,
            }
        },
    },
}


def _csv_schema(schema: dict[str, Any]) -> None:
    """Text, not bytes: its length in characters (``MAX_CSV_CHARS``, which
    the service checks once the body is decoded), no binary media type."""
    schema.pop("contentMediaType", None)
    schema.pop("format", None)
    schema["maxLength"] = MAX_CSV_CHARS


RulesetQuery = Annotated[
    str, Query(max_length=40, description="the ruleset whose chart lines these are")
]
SideQuery = Annotated[str, Query(max_length=40, description="a side of the ruleset")]
CsvBody = Annotated[
    bytes,
    BodyParam(
        media_type=CSV,
        min_length=1,
        json_schema_extra=_csv_schema,
        description="UTF-8 CSV (',', ';' or tab separated): a header naming the chart "
        "line's columns (id, name, cpp, per_date_max, cg_max, fpp, footnotes, ...), then a "
        "row per chart line; several footnotes in one cell separated by spaces, other list "
        "items by ';'",
    ),
]


class ChartSource(Body):
    """What to write as CSV: a whole CG definition, or chart lines."""

    definition: dict[str, Any] | None = Field(
        default=None,
        description="a CG definition (GET /v1/rulesets/{r}/definition-schema); its chart "
        "of the side is written",
    )
    lines: list[dict[str, Any]] | None = Field(
        default=None,
        description="rg_chart lines of the side, as POST /v1/definition-tools/rg-chart answers "
        "(a chart has at most 500: checked with the lines, so that a longer list is a 422 "
        "naming lines, never a body over the size limit)",
    )


def _csv(text: str, name: str) -> RawResponse:
    headers = {"Content-Disposition": f'attachment; filename="{name}"'}
    return RawResponse(text, media_type=f"{CSV}; charset=utf-8", headers=headers)


_CSV_ANSWER: dict[int | str, dict[str, Any]] = {
    200: {
        "content": {CSV: {"schema": {"type": "string"}}},
        "description": "The chart as CSV: a header, then a row per chart line",
    }
}


def _filename(ruleset: str, side: str) -> str:
    plain = "".join(c if c.isalnum() else "-" for c in f"{ruleset}-{side}")
    return f"rg-chart-{plain}.csv"


def install_authoring_routes(app: FastAPI) -> None:
    @app.post(
        "/v1/definition-tools/rg-chart",
        tags=["definition-tools"],
        response_model=ChartLines,
    )
    def chart_from_csv(
        body: CsvBody, ruleset: RulesetQuery, side: SideQuery | None = None
    ) -> dict[str, Any]:
        """A side's RG chart typed in a spreadsheet, as the ``rg_chart`` lines
        of a CG definition (DESIGN §15; docs/authoring.md). With ``side``, the
        lines are checked as that side's chart. A bad file is a 422 whose
        ``cells`` name every bad cell: its ``row`` (from 1 after the header; 0
        is the header), ``column``, spreadsheet ``cell`` and ``message``."""
        return authoring.chart_from_csv(ruleset, side, body)

    @app.get(
        "/v1/definition-tools/rg-chart",
        tags=["definition-tools"],
        response_class=RawResponse,
        responses=_CSV_ANSWER,
    )
    def sample_chart_csv(ruleset: RulesetQuery, side: SideQuery) -> RawResponse:
        """A side's RG chart in the ruleset's sample definition, as CSV: a
        file to type a real chart over. ``POST …/rg-chart/csv`` writes the
        chart of any definition."""
        return _csv(authoring.sample_chart_csv(ruleset, side), _filename(ruleset, side))

    @app.post(
        "/v1/definition-tools/rg-chart/csv",
        tags=["definition-tools"],
        response_class=RawResponse,
        responses=_CSV_ANSWER,
    )
    def chart_csv(body: ChartSource, ruleset: RulesetQuery, side: SideQuery) -> RawResponse:
        """A side's RG chart as CSV, from a CG definition (``definition``,
        checked as a campaign checks it) or from chart lines (``lines``).
        Read back with ``POST /v1/definition-tools/rg-chart`` it gives the
        same lines; a value no CSV cell can keep is a 422 naming it."""
        text = authoring.chart_csv_of(ruleset, side, body.definition, body.lines)
        return _csv(text, _filename(ruleset, side))

    @app.post(
        "/v1/definition-tools/map-group",
        tags=["definition-tools"],
        response_model=MapGroupDraft,
    )
    def map_group(body: MapGrid) -> dict[str, Any]:
        """A map group of DESIGN §9 with every hex of a grid (one board, or
        several side by side), each with its ASL id, ``q`` and ``r``; at most
        20,000 hexes. Bad ranges, overlapping boards or too many hexes are a
        422 naming the field."""
        return authoring.map_group(body)

    @app.post(
        VASL_BOARD,
        tags=["definition-tools"],
        response_model=VaslBoardImport,
        response_model_exclude_unset=True,
        openapi_extra={"requestBody": _ARCHIVE_BODY},
    )
    async def map_group_from_vasl(
        request: Request,
        map_id: Annotated[
            str | None,
            Query(
                alias="id",
                max_length=20,
                pattern=ID_PATTERN,
                description="the map group's id; default: the board's name",
            ),
        ] = None,
        title: Annotated[
            str | None,
            Query(max_length=200, description="its title; default: 'VASL board <name>'"),
        ] = None,
    ) -> dict[str, Any]:
        """A map group of DESIGN §9 from a VASL board archive: every hex of
        the board from its ``BoardMetadata.xml`` (its layout variants
        included), with ``levels`` and ``enterable: false`` where the
        archive gives them, and beside it each hex's ``readings`` of
        ``LOSData`` (ground level, terrain, stairway) and of the metadata's
        ``buildingTypes``, the ``board`` read and ``notes``. An archive it
        cannot read (not a zip, no ``BoardMetadata.xml``, a layout it does not
        know, an ``LOSData`` whose length does not match its header) is a 422
        saying why; ``field`` names the body (``zip``, ``form-data.file``)
        and the entry (``zip.LOSData``). docs/authoring.md says what it reads
        and what it leaves to the players."""
        body = await request.body()
        kind = request.headers.get("content-type")
        return await run_in_threadpool(authoring.map_group_from_vasl, body, kind, map_id, title)
