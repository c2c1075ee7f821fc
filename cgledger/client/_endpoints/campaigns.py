"""A campaign's own endpoints: creating and reading it, its dice and its
event log."""

# An endpoint method is declared by its signature; its body is its docstring
# (cgledger.client._declare.route).
# mypy: disable-error-code="empty-body"

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Unpack

from cgledger.api.models import (
    CampaignCreated,
    CampaignView,
    Checkpoint,
    DiceStats,
    EventPage,
    PageView,
    RevealedEvent,
    RollView,
    StateView,
    TableRollView,
)
from cgledger.client._calls import Spec, json_body, model
from cgledger.client._declare import C, Drm, EventFilters, Read, Write, built, route


class CampaignEndpoints:
    # ---------------------------------------------------------------- campaigns

    @built("POST", "/v1/campaigns")
    def create_campaign(
        self,
        ruleset: str,
        name: str,
        *,
        title: str = "",
        start_date: str | None = None,
        initial_cpp: Mapping[str, int] | None = None,
        definition: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> Spec[CampaignCreated]:
        """Create a campaign of ``ruleset`` (an id of ``rulesets()``) for the CG ``name``
        (the body's ``campaign``, e.g. ``"CG I"``). The answer holds each
        role's token, once."""
        body = json_body(
            ruleset=ruleset,
            campaign=name,
            title=title,
            start_date=start_date,
            initial_cpp=initial_cpp,
            definition=definition,
        )
        return Spec(model(CampaignCreated), body=body, idempotency_key=idempotency_key)

    @route("GET", C)
    def get_campaign(self, **r: Unpack[Read]) -> CampaignView:
        """The campaign."""

    @route("GET", C + "/page")
    def page(
        self,
        *,
        log_after: int | None = None,
        map_group: str | None = None,
        map_digest: str | None = None,
        **r: Unpack[Read],
    ) -> PageView:
        """Everything the campaign page draws, in one answer (DESIGN §12 Cost);
        the map's SVG only if its digest is not ``map_digest``."""

    @route("GET", C + "/state")
    def state(self, *, at: int | None = None, **r: Unpack[Read]) -> StateView:
        """The campaign's state, as of ``at``."""

    @route("GET", C + "/checkpoint")
    def checkpoint(self, *, at: int | None = None, **r: Unpack[Read]) -> Checkpoint:
        """The signed checkpoint of the log's head (or of event ``at``)."""

    # ---------------------------------------------------------------- dice

    @route("POST", C + "/rolls")
    def roll(
        self,
        dice: int,
        purpose: str,
        *,
        secret: bool = False,
        client_nonce: str | None = None,
        **w: Unpack[Write],
    ) -> RollView:
        """Roll 1 (dr) or 2 (DR) dice; ``secret`` hides them from the opponent."""

    @built("POST", C + "/tables/{table_id}/rolls")
    def roll_table(
        self,
        table_id: str,
        *,
        drm: Sequence[Drm] = (),
        inputs: Mapping[str, int | str] | None = None,
        secret: bool | None = None,
        client_nonce: str | None = None,
        **w: Unpack[Write],
    ) -> Spec[TableRollView]:
        """Roll on a rule table (an id of ``tables(ruleset)``) with named DRMs."""
        body = json_body(drm=drm, inputs=inputs or {}, secret=secret, client_nonce=client_nonce)
        return Spec(model(TableRollView), path={"table_id": table_id}, body=body, **w)

    @route("GET", C + "/rolls/{index}")
    def get_roll(self, index: int, **r: Unpack[Read]) -> RollView:
        """One roll by its index."""

    @route("POST", C + "/rolls/{index}/reveal")
    def reveal_roll(self, index: int, **w: Unpack[Write]) -> RollView:
        """Publish the seed of one's own Secret roll."""

    @route("GET", C + "/dice-stats")
    def dice_stats(
        self,
        *,
        side: str | None = None,
        table: str | None = None,
        date: str | None = None,
        reverted: bool | None = None,
        at: int | None = None,
        **r: Unpack[Read],
    ) -> DiceStats:
        """The dice statistics, filtered by side, table, CG Date and reverted, as of ``at``."""

    # ---------------------------------------------------------------- events

    @built("GET", C + "/events")
    def events(
        self,
        *,
        after: int = 0,
        limit: int | None = None,
        before: int | None = None,
        **f: Unpack[EventFilters],
    ) -> Spec[EventPage]:
        """One page of the event log as the caller may see it (``next_after``
        pages on; ``iter_events`` reads them all); ``before`` ends the window
        below that seq, to page back from the newest end."""
        kinds = f.get("event_type")
        query = {
            "after": after,
            "limit": limit,
            "before": before,
            "type": [kinds] if isinstance(kinds, str) else kinds,
            "actor": f.get("actor"),
            "table": f.get("table"),
            "date": f.get("date"),
            "reverted": f.get("reverted"),
        }
        return Spec(model(EventPage), query=query, campaign=f.get("campaign"))

    @route("POST", C + "/events/{seq}/reveal")
    def reveal_event(self, seq: int, **w: Unpack[Write]) -> RevealedEvent:
        """Reveal the secret part of one's own event (e.g. a secret purchase)."""

    @route("GET", C + "/export")
    def export(self, **r: Unpack[Read]) -> bytes:
        """The JSONL export (``cgledger verify`` checks it), as bytes."""
