"""Routes of the authoring tools (DESIGN §15): a side's RG chart from CSV
and back, and a map group from a grid. No token: they touch no campaign;
``cgledger.service.authoring`` answers."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Body as BodyParam
from fastapi import FastAPI, Query
from fastapi.responses import Response as RawResponse
from pydantic import Field

from cgledger.api.models import ChartLines, MapGroupDraft
from cgledger.domain.chart_csv import MAX_CSV_CHARS
from cgledger.domain.map_grid import MapGrid
from cgledger.domain.requests import Body
from cgledger.service import authoring

CSV = "text/csv"


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
