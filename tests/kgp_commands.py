"""KGP's own commands (``cgledger.domain.rulesets.kgp.rules``), called the way the API
calls them: ``Campaign.perform`` with the action's validated body."""

from __future__ import annotations

from cgledger.domain.campaign import Campaign, Ctx
from cgledger.domain.rulesets.kgp.rules import (
    DeterminationCreate,
    ReconCreate,
    ReplenishmentCreate,
    RGItem,
    RGPurchaseCreate,
)


def replenish_cpp(c: Campaign, ctx: Ctx, side: str | None, client_nonce: str | None) -> int:
    body = ReplenishmentCreate(side=side, client_nonce=client_nonce)
    return c.perform(ctx, "cpp-replenishments", body)


def purchase_rg(
    c: Campaign,
    ctx: Ctx,
    side: str | None,
    rgs: list[tuple[str, int | None]],
    *,
    secret: bool,
    map_group: str | None = "Sx",
) -> int:
    """One RG purchase event of ``(rg, cpp)`` items, each for ``map_group``
    (8.6195: the sample CG has two Map Groups, so it must be named); a ``cpp``
    of ``None`` leaves the price to the chart (8.6194)."""
    items = [RGItem(rg=rg, cpp=cpp, map_group=map_group) for rg, cpp in rgs]
    return c.perform(ctx, "rg-purchases", RGPurchaseCreate(side=side, rgs=items, secret=secret))


def determine_rg(c: Campaign, ctx: Ctx, side: str | None) -> int:
    """The next roll (8.6201-8.6206) an RG the side bought on this CG Date
    still needs."""
    return c.perform(ctx, "rg-determinations", DeterminationCreate(side=side))


def purchase_recon(
    c: Campaign,
    ctx: Ctx,
    side: str | None,
    cost: int,
    *,
    lax: bool,
    secret: bool,
    client_nonce: str | None,
) -> int:
    body = ReconCreate(side=side, cpp=cost, lax=lax, secret=secret, client_nonce=client_nonce)
    return c.perform(ctx, "recon", body)
