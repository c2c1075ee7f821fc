"""Authoring a CG definition (DESIGN §15): a side's RG chart from CSV and
back, a map group from a grid, and one from a VASL board archive. Nothing
here touches a campaign: the tools answer what the players then put in a
definition (§7) and check it as a campaign would (the ruleset's definition
model, ``validated_definition``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from cgledger.domain import chart_csv, vasl_board
from cgledger.domain.campaign.core import sample_definition, validated_definition
from cgledger.domain.definitions import RGEntry
from cgledger.domain.errors import InvalidInput
from cgledger.domain.map_grid import MapGrid, map_group_from_grid
from cgledger.domain.rulesets import REGISTRY, Ruleset
from cgledger.service import uploads


def ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset a tool's ``ruleset`` names (a query parameter: 422, not 404)."""
    found = REGISTRY.get(ruleset_id)
    if found is None:
        raise InvalidInput(
            f"ruleset: unknown ruleset {ruleset_id!r}; known: {', '.join(REGISTRY)}",
            field="ruleset",
        )
    return found


def _side(rs: Ruleset, side: str) -> str:
    if side not in rs.sides:
        raise InvalidInput(
            f"side: unknown side {side!r}; {rs.id}'s sides are {', '.join(rs.sides)}",
            field="side",
        )
    return side


def chart_from_csv(ruleset_id: str, side: str | None, body: bytes) -> dict[str, Any]:
    """The chart lines of a CSV file (UTF-8), as ``rg_chart`` JSON lines;
    with ``side``, checked as that side's chart."""
    rs = ruleset(ruleset_id)
    if side is not None:
        _side(rs, side)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(
            f"csv: not UTF-8 text (byte {exc.start}); save the sheet as 'CSV UTF-8'",
            field="csv",
        ) from None
    lines = chart_csv.read_chart(text, rs.definition, side)
    return {"ruleset": rs.id, "side": side, "lines": chart_csv.dumped(lines)}


def _csv(rs: Ruleset, side: str, lines: Sequence[RGEntry], where: str) -> str:
    return chart_csv.write_chart(lines, chart_csv.line_model(rs.definition), where)


def sample_chart_csv(ruleset_id: str, side: str) -> str:
    """The CSV of a side's RG chart in the ruleset's sample definition."""
    rs = ruleset(ruleset_id)
    doc, _ = sample_definition(rs)
    chart = chart_csv.side_chart(rs.definition, doc, _side(rs, side))
    return _csv(rs, side, chart, f"rg_chart.{side}")


def chart_csv_of(
    ruleset_id: str,
    side: str,
    definition: dict[str, Any] | None,
    lines: list[Any] | None,
) -> str:
    """The CSV of a side's RG chart: of a whole ``definition`` (checked as a
    campaign checks it) or of chart ``lines``."""
    rs = ruleset(ruleset_id)
    _side(rs, side)
    if (definition is None) == (lines is None):
        raise InvalidInput("definition: send either a definition or lines", field="definition")
    if definition is not None:
        doc = validated_definition(rs, definition)
        chart = chart_csv.side_chart(rs.definition, doc, side)
        return _csv(rs, side, chart, f"definition.rg_chart.{side}")
    try:
        found = chart_csv.side_chart(rs.definition, {"rg_chart": {side: lines}}, side)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in ("lines", *err["loc"][2:]))
        msg = str(err["msg"]).removeprefix("Value error, ")
        raise InvalidInput(f"{where}: {msg}", field=where) from None
    return _csv(rs, side, found, "lines")


def map_group(grid: MapGrid) -> dict[str, Any]:
    """A §9 map group of every hex of a grid (one board, or several)."""
    return map_group_from_grid(grid)


def map_group_from_vasl(
    body: bytes, content_type: str | None, map_id: str | None, title: str | None
) -> dict[str, Any]:
    """A §9 map group of a VASL board archive, with each hex's readings: the
    archive is the body, or the part ``file`` of a ``multipart/form-data``
    body (whose part ``terrain_types`` may carry VASL's terrain types)."""
    if not uploads.is_form(content_type):
        return vasl_board.import_board(body, map_id=map_id, title=title)
    parts = uploads.form_parts(body, content_type or "")
    archive = f"{uploads.FORM}.file"
    if "file" not in parts:
        raise InvalidInput(f"{archive}: send the board archive as the part 'file'", field=archive)
    return vasl_board.import_board(
        parts["file"],
        where=archive,
        terrain=parts.get("terrain_types"),
        terrain_where=f"{uploads.FORM}.terrain_types",
        map_id=map_id,
        title=title,
    )
