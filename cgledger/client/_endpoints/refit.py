"""The Refit Phase and what it keeps: CG Dates, the RePh sequence,
initiative, the scenario's end, the CG Roster and the RG Purchase Record."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, Unpack

from cgledger.api.models import (
    CGDateView,
    InitiativePage,
    InitiativeView,
    RePhView,
    RGRecordView,
    RosterView,
    ScenarioEndResult,
)
from cgledger.client._calls import Spec, json_body, model
from cgledger.client._declare import C, Read, Write, route


class RefitEndpoints:
    @route("POST", C + "/cg-dates")
    def begin_cg_date(self, cg_date: str | None = None, **w: Unpack[Write]) -> Spec[CGDateView]:
        """8.6121: begin the next CG Date (``cg_date`` only past the calendar)."""
        return Spec(model(CGDateView), body=json_body(cg_date=cg_date), **w)

    @route("GET", C + "/reph")
    def reph(self, *, at: int | None = None, **r: Unpack[Read]) -> Spec[RePhView]:
        """The RePh sequence of the current CG Date, each side's step status."""
        return Spec(model(RePhView), query={"at": at}, **r)

    @route("POST", C + "/reph/advance")
    def advance(self, to: str, *, side: str | None = None, **w: Unpack[Write]) -> Spec[RePhView]:
        """Complete the side's steps up to ``to`` (a rule number, or ``"scenario"``)."""
        return Spec(model(RePhView), body=json_body(to=to, side=side), **w)

    @route("POST", C + "/initiative")
    def choose_initiative(
        self, chit: Literal["attack", "idle"], *, side: str | None = None, **w: Unpack[Write]
    ) -> Spec[InitiativeView]:
        return Spec(model(InitiativeView), body=json_body(chit=chit, side=side), **w)

    @route("GET", C + "/initiative")
    def initiative(
        self, *, cg_date: str | None = None, at: int | None = None, **r: Unpack[Read]
    ) -> Spec[InitiativePage]:
        return Spec(model(InitiativePage), query={"cg_date": cg_date, "at": at}, **r)

    @route("POST", C + "/scenario-end")
    def scenario_end(
        self,
        cvp: Mapping[str, int],
        *,
        control: Sequence[Mapping[str, Any]] | None = None,
        winner: str | None = None,
        vp: Mapping[str, int] | None = None,
        vp_required: int | None = None,
        **w: Unpack[Write],
    ) -> Spec[ScenarioEndResult]:
        """CG-Scenario End: the CVP each side earned (and, where the ruleset
        keeps VP, the VP scored and required: 2.91)."""
        body = json_body(cvp=cvp, control=control, winner=winner, vp=vp, vp_required=vp_required)
        return Spec(model(ScenarioEndResult), body=body, **w)

    @route("GET", C + "/roster")
    def roster(
        self, side: str | None = None, *, at: int | None = None, **r: Unpack[Read]
    ) -> Spec[RosterView]:
        """The side's CG Roster (default: the caller's side), as of ``at``."""
        return Spec(model(RosterView), query={"side": side, "at": at}, **r)

    @route("GET", C + "/rg-record")
    def rg_record(
        self, side: str | None = None, *, at: int | None = None, **r: Unpack[Read]
    ) -> Spec[RGRecordView]:
        return Spec(model(RGRecordView), query={"side": side, "at": at}, **r)
