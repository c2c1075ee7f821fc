"""The Refit Phase and what it keeps: CG Dates, the RePh sequence,
initiative, the scenario's end, the CG Roster and the RG Purchase Record."""

# An endpoint method is declared by its signature; its body is its docstring
# (cgledger.client._declare.route).
# mypy: disable-error-code="empty-body"

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
from cgledger.client._declare import C, Read, Write, route


class RefitEndpoints:
    @route("POST", C + "/cg-dates")
    def begin_cg_date(self, cg_date: str | None = None, **w: Unpack[Write]) -> CGDateView:
        """8.6121: begin the next CG Date (``cg_date`` only past the calendar)."""

    @route("GET", C + "/reph")
    def reph(self, *, at: int | None = None, **r: Unpack[Read]) -> RePhView:
        """The RePh sequence of the current CG Date, each side's step status."""

    @route("POST", C + "/reph/advance")
    def advance(self, to: str, *, side: str | None = None, **w: Unpack[Write]) -> RePhView:
        """Complete the side's steps up to ``to`` (a rule number, or ``"scenario"``)."""

    @route("POST", C + "/initiative")
    def choose_initiative(
        self, chit: Literal["attack", "idle"], *, side: str | None = None, **w: Unpack[Write]
    ) -> InitiativeView:
        """Choose the side's Initiative chit."""

    @route("GET", C + "/initiative")
    def initiative(
        self, *, cg_date: str | None = None, at: int | None = None, **r: Unpack[Read]
    ) -> InitiativePage:
        """The Initiative chits and determinations (of ``cg_date``), as of ``at``."""

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
    ) -> ScenarioEndResult:
        """CG-Scenario End: the CVP each side earned (and, where the ruleset
        keeps VP, the VP scored and required: 2.91)."""

    @route("GET", C + "/roster")
    def roster(
        self, side: str | None = None, *, at: int | None = None, **r: Unpack[Read]
    ) -> RosterView:
        """The side's CG Roster (default: the caller's side), as of ``at``."""

    @route("GET", C + "/rg-record")
    def rg_record(
        self, side: str | None = None, *, at: int | None = None, **r: Unpack[Read]
    ) -> RGRecordView:
        """The side's RG Purchase Record (default: the caller's side), as of ``at``."""
