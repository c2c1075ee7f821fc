"""The authoring tools (DESIGN §15): a side's RG chart from CSV and back, a
map group from a grid and one from a VASL board archive, and a draft
definition checked (no token needed, no campaign touched)."""

# An endpoint method is declared by its signature; its body is its docstring
# (cgledger.client._declare.route).
# mypy: disable-error-code="empty-body"

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cgledger.api.models import ChartLines, DefinitionCheck, MapGroupDraft, VaslBoardImport
from cgledger.client._calls import Spec, json_body, model, text
from cgledger.client._declare import built, route

TOOLS = "/v1/definition-tools"


class AuthoringEndpoints:
    @built("POST", TOOLS + "/rg-chart")
    def chart_from_csv(
        self, csv: str | bytes, *, ruleset: str, side: str | None = None
    ) -> Spec[ChartLines]:
        """The ``rg_chart`` lines of a chart typed in a spreadsheet (CSV: a
        header naming the columns, a row per line); with ``side``, checked
        as that side's chart. A bad cell is an ``ApiError`` whose problem's
        ``cells`` names every one."""
        data = csv.encode("utf-8") if isinstance(csv, str) else csv
        query = {"ruleset": ruleset, "side": side}
        return Spec(model(ChartLines), query=query, content=data, content_type="text/csv")

    @route("GET", TOOLS + "/rg-chart")
    def sample_chart_csv(self, ruleset: str, side: str) -> str:
        """A side's RG chart in the ruleset's sample definition, as CSV."""

    @built("POST", TOOLS + "/rg-chart/csv")
    def chart_to_csv(
        self,
        *,
        ruleset: str,
        side: str,
        definition: Mapping[str, Any] | None = None,
        lines: Sequence[Mapping[str, Any]] | None = None,
    ) -> Spec[str]:
        """A side's RG chart as CSV, of a ``definition`` or of chart ``lines``."""
        body = json_body(definition=definition, lines=lines)
        return Spec(text, query={"ruleset": ruleset, "side": side}, body=body)

    @route("POST", TOOLS + "/map-group")
    def map_group_from_grid(
        self,
        id: str,
        *,
        title: str = "",
        columns: str | None = None,
        rows: Sequence[int] | None = None,
        first_column_offset: int = 0,
        boards: Sequence[Mapping[str, Any]] | None = None,
    ) -> MapGroupDraft:
        """A map group of every hex of a grid: ``columns`` ("A-GG") and
        ``rows`` ([1, 10]), or several ``boards`` side by side."""

    @built("POST", TOOLS + "/vasl-board")
    def map_group_from_vasl(
        self, archive: bytes, *, id: str | None = None, title: str | None = None
    ) -> Spec[VaslBoardImport]:
        """A map group of every hex of a VASL board archive (the zip's bytes:
        ``BoardMetadata.xml``, and ``LOSData`` where the board has one; add
        VASL's ``SharedBoardMetadata.xml`` to it to name the terrain), with
        each hex's readings, the board read and notes. An archive the tool
        cannot read is an ``ApiError`` saying why."""
        query = {"id": id, "title": title}
        return Spec(
            model(VaslBoardImport), query=query, content=archive, content_type="application/zip"
        )

    @built("POST", TOOLS + "/validate")
    def validate_definition(
        self,
        definition: Mapping[str, Any],
        *,
        ruleset: str,
        map_group: str | None = None,
        cg_date: str | None = None,
    ) -> Spec[DefinitionCheck]:
        """A draft definition checked as a campaign checks it: its ``hash``
        and normalised ``definition``, and with ``map_group`` the Setup Areas
        of its initial Control (on ``cg_date``: SSR CG6c). A bad one is an
        ``ApiError`` whose problem's ``problems`` names every field."""
        body = json_body(definition=definition, map_group=map_group, cg_date=cg_date)
        return Spec(model(DefinitionCheck), query={"ruleset": ruleset}, body=body)
