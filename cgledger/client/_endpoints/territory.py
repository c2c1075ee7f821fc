"""Territory: Control, the LVP and the Setup Areas (also drawn as a map)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Unpack

from cgledger.api.models import ControlView, LvpView, SetupAreasView
from cgledger.client._calls import Spec, json_body, model, text
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
    ) -> Spec[ControlView]:
        """Record Control, e.g. ``[{"hex": "J19", "side": "US"}]``."""
        body = json_body(map_group=map_group, locations=locations, blocks=blocks, rule=rule)
        return Spec(model(ControlView), body=body, **w)

    @route("GET", C + "/control")
    def control(
        self, map_group: str | None = None, *, at: int | None = None, **r: Unpack[Read]
    ) -> Spec[ControlView]:
        return Spec(model(ControlView), query={"map_group": map_group, "at": at}, **r)

    @route("GET", C + "/lvp")
    def lvp(self, *, at: int | None = None, **r: Unpack[Read]) -> Spec[LvpView]:
        return Spec(model(LvpView), query={"at": at}, **r)

    @route("GET", C + "/setup-areas")
    def setup_areas(
        self, map_group: str | None = None, *, at: int | None = None, **r: Unpack[Read]
    ) -> Spec[SetupAreasView]:
        return Spec(model(SetupAreasView), query={"map_group": map_group, "at": at}, **r)

    @route("GET", C + "/setup-areas.svg")
    def setup_areas_svg(
        self, map_group: str | None = None, *, at: int | None = None, **r: Unpack[Read]
    ) -> Spec[str]:
        """The Setup Areas drawn as an SVG map (text)."""
        return Spec(text, query={"map_group": map_group, "at": at}, **r)
