"""The ruleset commands (``POST /v1/campaigns/{id}/<action>``): purchases,
determinations, Fortifications, Recon, Ammunition Shortage, KGP CG14's
Fanaticism, and any other by
its path. Each answers an ``ActionResult``; ``side`` is the referee's to name."""

# An endpoint method is declared by its signature; its body is its docstring
# (cgledger.client._declare.route).
# mypy: disable-error-code="empty-body"

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Unpack

from cgledger.api.models import ActionResult
from cgledger.client._calls import Spec, model
from cgledger.client._declare import C, Drm, Write, built, route

DONE = model(ActionResult)


class CommandEndpoints:
    @route("POST", C + "/cpp-replenishments")
    def cpp_replenishment(
        self, *, side: str | None = None, client_nonce: str | None = None, **w: Unpack[Write]
    ) -> ActionResult:
        """The side's CPP replenishment."""

    @route("POST", C + "/rg-purchases")
    def rg_purchase(
        self,
        rg: str | None = None,
        *,
        cpp: int | None = None,
        map_group: str | None = None,
        modifiers: Sequence[str] | None = None,
        objective_hex: str | None = None,
        rgs: Sequence[Mapping[str, Any]] | None = None,
        secret: bool | None = None,
        side: str | None = None,
        **w: Unpack[Write],
    ) -> ActionResult:
        """Buy an RG (``rg``), or a batch (``rgs``)."""

    @route("POST", C + "/rg-determinations")
    def rg_determination(
        self,
        *,
        for_purchase: int | None = None,
        item: int | None = None,
        table: str | None = None,
        drm: Sequence[Drm] | None = None,
        client_nonce: str | None = None,
        side: str | None = None,
        **w: Unpack[Write],
    ) -> ActionResult:
        """The next roll an RG needs (or the one on ``table``)."""

    @route("POST", C + "/fortification-purchases")
    def fortification_purchase(
        self,
        items: Sequence[Mapping[str, Any]],
        *,
        secret: bool | None = None,
        side: str | None = None,
        **w: Unpack[Write],
    ) -> ActionResult:
        """Spend FPP, e.g. ``[{"type": "at-mine-factor", "count": 4}]``."""

    @route("POST", C + "/fortification-setups")
    def fortification_setup(
        self,
        items: Sequence[Mapping[str, Any]],
        *,
        map_group: str | None = None,
        retained: Mapping[str, Any] | None = None,
        side: str | None = None,
        **w: Unpack[Write],
    ) -> ActionResult:
        """Record the (secret) setup Locations of Fortifications."""

    @route("POST", C + "/hidden-fortifications")
    def hidden_fortifications(
        self, *, map_group: str | None = None, **w: Unpack[Write]
    ) -> ActionResult:
        """Place the opponent's still-hidden Fortifications in one's Setup Areas on-map."""

    @route("POST", C + "/recon")
    def recon(
        self,
        cpp: int,
        *,
        lax: bool | None = None,
        secret: bool | None = None,
        client_nonce: str | None = None,
        side: str | None = None,
        **w: Unpack[Write],
    ) -> ActionResult:
        """Recon, for ``cpp`` CPP."""

    @route("POST", C + "/ammunition-shortage")
    def ammunition_shortage(
        self,
        *,
        scenarios_after_20_am: int | None = None,
        client_nonce: str | None = None,
        side: str | None = None,
        **w: Unpack[Write],
    ) -> ActionResult:
        """The Ammunition Shortage roll."""

    @route("POST", C + "/fanaticism")
    def fanaticism(self, *, side: str | None = None, **w: Unpack[Write]) -> ActionResult:
        """KGP CG14: the German declares his Personnel Fanatic for the CG scenario."""

    @built("POST", C + "/{action}")
    def action(
        self, action: str, body: Mapping[str, Any] | None = None, **w: Unpack[Write]
    ) -> Spec[ActionResult]:
        """Any ruleset command by its path (``GET /v1/rulesets``' ``actions``)."""
        return Spec(DONE, path={"action": action}, body=dict(body or {}), **w)
