"""KGP's own commands (``cgledger.domain.rulesets.kgp.rules``), called the way the API
calls them: ``Campaign.perform`` with the action's validated body."""

from __future__ import annotations

from cgledger.domain.campaign import Campaign, Ctx
from cgledger.domain.rulesets.kgp.rules import (
    ReconCreate,
    ReplenishmentCreate,
    RGItem,
    RGPurchaseCreate,
)


def replenish_cpp(c: Campaign, ctx: Ctx, side: str | None, client_nonce: str | None) -> int:
    body = ReplenishmentCreate(side=side, client_nonce=client_nonce)
    return c.perform(ctx, "cpp-replenishments", body)


def purchase_rg(
    c: Campaign, ctx: Ctx, side: str | None, rgs: list[tuple[str, int]], *, secret: bool
) -> int:
    items = [RGItem(rg=rg, cpp=cpp) for rg, cpp in rgs]
    return c.perform(ctx, "rg-purchases", RGPurchaseCreate(side=side, rgs=items, secret=secret))


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
