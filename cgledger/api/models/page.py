"""The campaign page's one read (``GET /page``): each part is typed by the
model of the route that serves it on its own."""

from __future__ import annotations

from pydantic import BaseModel

from cgledger.api.models.audit import DisputePage, ProposalPage
from cgledger.api.models.common import CampaignView, EventPage
from cgledger.api.models.readmodels import DiceStats, RGRecordView, RosterView
from cgledger.api.models.reph import InitiativePage, RePhView
from cgledger.api.models.territory import LvpView


class PageMap(BaseModel):
    map_group: str
    #: The map's digest (of what it is drawn from, for the caller): send it
    #: back as ``map_digest`` to be spared the same map.
    digest: str
    #: ``GET /setup-areas.svg``'s answer; ``null`` when it is the page's already.
    svg: str | None


class PageView(BaseModel):
    version: int
    campaign: CampaignView
    reph: RePhView
    initiative: InitiativePage
    rosters: dict[str, RosterView]
    rg_records: dict[str, RGRecordView]
    lvp: LvpView
    dice_stats: DiceStats
    proposals: ProposalPage
    disputes: DisputePage
    events: EventPage
    #: The seqs of the caller's own RG bought in the open (an RGPurchased event).
    open_purchases: list[int]
    #: The Setup Areas map, where the campaign has map groups.
    map: PageMap | None = None
