"""Territory: Control, the LVP and the Setup Areas (also drawn as a map)."""

# An endpoint method is declared by its signature; its body is its docstring
# (cgledger.client._declare.route).
# mypy: disable-error-code="empty-body"

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Unpack

from cgledger.api.models import ControlView, LvpView, SetupAreasView
from cgledger.client._declare import C, Read, Write, route


class TerritoryEndpoints:
    @route("POST", C + "/control")
    def record_control(
        self,
        map_group: str,
        locations: Sequence[Mapping[str, Any]] = (),
        *,
        blocks: Sequence[Mapping[str, Any]] | None = None,
        rule: str | None = None,
        **w: Unpack[Write],
    ) -> ControlView:
        """Record Control, e.g. ``[{"hex": "J19", "side": "US"}]``: a side's
        is ``pending`` until the opponent approves it (``approve_proposal``)."""

    @route("GET", C + "/control")
    def control(
        self, map_group: str | None = None, *, at: int | None = None, **r: Unpack[Read]
    ) -> ControlView:
        """Control (of ``map_group``), as of ``at``."""

    @route("GET", C + "/lvp")
    def lvp(self, *, at: int | None = None, **r: Unpack[Read]) -> LvpView:
        """The LVP, as of ``at``."""

    @route("GET", C + "/setup-areas")
    def setup_areas(
        self, map_group: str | None = None, *, at: int | None = None, **r: Unpack[Read]
    ) -> SetupAreasView:
        """The Setup Areas (of ``map_group``), as of ``at``."""

    @route("GET", C + "/setup-areas.svg")
    def setup_areas_svg(
        self, map_group: str | None = None, *, at: int | None = None, **r: Unpack[Read]
    ) -> str:
        """The Setup Areas drawn as an SVG map (text)."""
