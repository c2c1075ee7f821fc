"""Routes of audit, undo, disputes and time travel (DESIGN §5): undo requests,
disputes with their evidence, ``state?at=``, signed checkpoints, the live feed
(Server-Sent Events) and dice statistics. They translate HTTP into
``Ledger``/``Campaign`` calls; the rules live in ``cgledger.domain.undo`` and
``cgledger.domain.campaign``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Path, Query, Request, Response
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from cgledger.api.deps import (
    MAX_INT,
    MAX_PAGE,
    Auth,
    CampaignId,
    IdempotencyKey,
    IfMatch,
    _appended,
    _etag,
    _ledger,
    _roll_view,
    campaign_view,
    run,
)
from cgledger.api.models import (
    Checkpoint,
    DiceStats,
    DisputePage,
    DisputeView,
    ServerKey,
    StateView,
    UndoRequestPage,
    UndoRequestView,
)
from cgledger.api.schemas import DisputeCreate, DisputeResolution, UndoRejection, UndoRequestCreate
from cgledger.domain.campaign import Campaign
from cgledger.domain.errors import DomainError, InvalidInput, NotFound
from cgledger.domain.visibility import may_see, redact
from cgledger.ledger import Ledger
from cgledger.projections.dicestats import dice_stats
from cgledger.projections.evidence import roll_proof, table_recheck
from cgledger.projections.roster import roster_view
from cgledger.projections.territory import lvp_view

Seq = Annotated[int, Path(ge=1, le=MAX_INT)]
At = Annotated[
    int | None,
    Query(ge=1, le=MAX_INT, description="A seq: the answer as it was given live at that event"),
]
#: The live feed polls the store this often (other server processes' writes),
#: and is woken at once by writes of this process.
POLL_SECONDS = 2.0
KEEPALIVE_SECONDS = 15.0


def as_of(ledger: Ledger, campaign: Campaign, at: int | None) -> Campaign:
    """The campaign as of event ``at`` (DESIGN §5, time travel)."""
    if at is None or at == campaign.version:
        return campaign
    if at > campaign.version:
        raise NotFound(f"no event {at} in this campaign (it is at {campaign.version})", field="at")
    return ledger.load(campaign.cid, version=at)


def event_item(campaign: Campaign, record: dict[str, Any], role: str) -> dict[str, Any]:
    """One event as ``role`` may see it, marked with the undo that reverted it."""
    seq = record["seq"]
    item = redact(record, role, revealed=record["secret"] is not None and campaign.is_revealed(seq))
    item["reverted_by"] = campaign.reverted_by(seq)
    return item


def state_view(campaign: Campaign, role: str) -> dict[str, Any]:
    """The campaign's state as ``role`` may see it: the campaign, each side's
    Roster (hidden numbers null, as live), what is reverted, and what is open."""
    rosters: dict[str, Any] | None = None
    if campaign.ruleset.rules.has_roster:
        rosters = {side: roster_view(campaign, side, role) for side in campaign.sides}
    return {
        "at": campaign.version,
        "campaign": campaign_view(campaign),
        "rosters": rosters,
        "reverted": [
            {"seq": int(seq), "by_undo": undo}
            for seq, undo in sorted(campaign.reverted.items(), key=lambda kv: int(kv[0]))
        ],
        "pending_undo_requests": sorted(
            int(rid) for rid, r in campaign.undo_requests.items() if r["status"] == "pending"
        ),
        "open_disputes": sorted(
            int(did) for did, d in campaign.disputes.items() if d["status"] == "open"
        ),
    }


def undo_request_view(ledger: Ledger, campaign: Campaign, rid: int) -> dict[str, Any]:
    request = campaign.undo_requests.get(str(rid))
    if request is None:
        raise NotFound(f"no undo request {rid} in this campaign", field="request")
    undo = None
    if request["undo"] is not None:
        p = ledger.record(campaign, request["undo"])["payload"]
        undo = {
            "seq": request["undo"],
            "approved_by": p["approved_by"],
            "at_once": p["at_once"],
            "reverts": p["reverts"],
            "restores": p["restores"],
            "rolls": p["rolls"],
            "reverted_by": campaign.reverted_by(request["undo"]),
        }
    return {
        "id": rid,
        "status": request["status"],
        "by": request["by"],
        "seqs": request["seqs"],
        "to_seq": request["to_seq"],
        "reason": request["reason"],
        "planned": request["planned"],
        "undo": undo,
        "answer": request["answer"],
        "version": campaign.version,
    }


def _request_of(ledger: Ledger, campaign: Campaign, seq: int) -> int:
    """The undo request a command's last event belongs to."""
    record = ledger.record(campaign, seq)
    if record["type"] == "UndoApplied":
        return int(record["payload"]["request"])
    return seq


def dispute_view(
    ledger: Ledger, campaign: Campaign, did: int, role: str, *, evidence: bool = True
) -> dict[str, Any]:
    dispute = campaign.disputes.get(str(did))
    if dispute is None:
        raise NotFound(f"no dispute {did} in this campaign", field="dispute")
    out: dict[str, Any] = {
        "id": did,
        "seq": dispute["of_seq"],
        "by": dispute["by"],
        "claim": dispute["claim"],
        "status": dispute["status"],
        "resolution": dispute["resolution"],
        "version": campaign.version,
    }
    if dispute["status"] == "open":
        # What "revert" would do, so nobody decides blind.
        try:
            effect = campaign.dispute_revert(did)
            out["revert_would"] = {"reverts": effect.reverts, "restores": effect.restores}
        except DomainError as exc:
            out["revert_would"] = {"refused": exc.detail}
    if evidence:
        out["evidence"] = _evidence(ledger, campaign, dispute["of_seq"], role)
    return out


def _evidence(ledger: Ledger, campaign: Campaign, seq: int, role: str) -> dict[str, Any]:
    record = ledger.record(campaign, seq)
    p = record["payload"]
    proof = None
    if "roll" in p:
        view = _roll_view(ledger, campaign, role, record)
        seed = campaign.seed(p["roll"]["index"], ledger.sealer)
        proof = roll_proof(campaign.cid, record, seed, view)
    table = None
    ref = p.get("table")
    if ref is None and record["secret"] is not None and "roll" in p:
        # A roll for a secret purchase names its table only in its secret part
        # (DESIGN §10): re-read for a viewer who may see it, else not shown.
        seen = may_see(p.get("owner"), role, revealed=campaign.is_revealed(seq))
        ref = record["secret"].get("table") if seen else None
    if "roll" in p and isinstance(ref, dict):
        def_seq = campaign.recorded_tables()[ref["hash"]]
        definition = ledger.record(campaign, def_seq)["payload"]["definition"]
        table = table_recheck(
            record,
            role,
            revealed=campaign.is_revealed(seq),
            definition=definition,
            definition_seq=def_seq,
        )
    then = as_of(ledger, campaign, seq - 1) if seq > 1 else None
    now = as_of(ledger, campaign, seq)
    out = {
        "event": event_item(campaign, record, role),
        "proof": proof,
        "table": table,
        "state_before": state_view(then, role) if then is not None else None,
        "state_after": state_view(now, role),
    }
    if record["type"] in TERRITORY_EVENTS and then is not None:
        out["territory"] = territory_change(then, now)
    return out


#: The events whose dispute shows the Setup Areas and LVP before and after.
TERRITORY_EVENTS = frozenset({"ControlRecorded", "ScenarioEnded"})


def territory_change(then: Campaign, now: Campaign) -> dict[str, Any]:
    """What a Control record or a scenario end changed (issue 14, DESIGN §9):
    each map group's hexes whose Setup-Area status, area or Isolation differ,
    both sides' areas before and after, the maps to compare (``.svg?at=``), and
    the LVP rows before and after. Nothing here is secret."""
    groups = []
    has_setup = now.ruleset.rules.setup_area_step is not None
    for group in now.definition_doc().get("map_groups") or ():
        gid = group["id"]
        entry: dict[str, Any] = {"map_group": gid}
        if has_setup:
            before, after = then.setup_areas_view(gid), now.setup_areas_view(gid)
            old = {h["hex"]: h for h in before["hexes"]}
            keys = ("status", "area", "isolated", "strategic", "controlled_by")
            changed = []
            for h in after["hexes"]:
                was = old.get(h["hex"])
                if was is None or any(was[k] != h[k] for k in keys):
                    changed.append(
                        {
                            "hex": h["hex"],
                            "before": None if was is None else {k: was[k] for k in keys},
                            "after": {k: h[k] for k in keys},
                        }
                    )
            entry.update(
                changed=changed,
                areas_before=_areas(before),
                areas_after=_areas(after),
                maps=[
                    f"/v1/campaigns/{now.cid}/setup-areas.svg?map_group={gid}&at={then.version}",
                    f"/v1/campaigns/{now.cid}/setup-areas.svg?map_group={gid}&at={now.version}",
                ],
            )
        groups.append(entry)
    return {
        "map_groups": groups,
        "lvp_before": lvp_view(then)["rows"],
        "lvp_after": lvp_view(now)["rows"],
    }


def _areas(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"id": a["id"], "side": a["side"], "hexes": len(a["hexes"]), "isolated": a["isolated"]}
        for a in view["areas"]
    ]


def install_audit_routes(app: FastAPI) -> None:  # noqa: PLR0915 - one place lists these routes
    @app.get("/v1/server-key", tags=["audit"], response_model=ServerKey)
    def server_key(request: Request) -> dict[str, Any]:
        """The Ed25519 public key that signs every checkpoint."""
        return _ledger(request).signer.server_key()

    @app.get("/v1/campaigns/{campaign_id}/checkpoint", tags=["audit"], response_model=Checkpoint)
    def checkpoint(
        campaign_id: CampaignId,
        response: Response,
        caller: Auth,
        at: At = None,
    ) -> dict[str, Any]:
        """The signed checkpoint ``{campaign, seq, head, time, signature}`` of the
        log's head (or of event ``at``). Save it: ``cgledger verify FILE
        --checkpoint`` proves later that the log was not rewritten under it."""
        campaign = caller.campaign
        _etag(response, campaign)
        if at is not None and at > campaign.version:
            raise NotFound(f"no event {at} in this campaign", field="at")
        return caller.ledger.checkpoint(campaign, at)

    @app.get(
        "/v1/campaigns/{campaign_id}/state",
        tags=["read models"],
        response_model=StateView,
        response_model_exclude_unset=True,
    )
    def get_state(
        campaign_id: CampaignId, response: Response, caller: Auth, at: At = None
    ) -> dict[str, Any]:
        """The campaign's state as of event ``at`` (default: now), as the caller
        may see it, with the same hidden fields as were hidden live then."""
        _etag(response, caller.campaign)
        return state_view(as_of(caller.ledger, caller.campaign, at), caller.role)

    # ---------------------------------------------------------------- undo

    @app.post(
        "/v1/campaigns/{campaign_id}/undo-requests",
        status_code=201,
        tags=["undo"],
        response_model=UndoRequestView,
        response_model_exclude_unset=True,
    )
    def request_undo(
        campaign_id: CampaignId,
        body: UndoRequestCreate,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """DESIGN §5: revert events by seq, or everything after ``to_seq``. A
        side's own latest action that no roll, reveal or other event depends on
        is reverted at once (``"status": "applied"``); anything else is
        ``"pending"`` until the opponent or the referee approves or rejects it."""
        ledger, _, done = run(
            caller,
            campaign_id,
            lambda c, ctx: c.request_undo(
                ctx, seqs=body.seqs, to_seq=body.to_seq, reason=body.reason
            ),
            operation="undo-request",
            body=body.model_dump(mode="json"),
            idem=idem,
            if_match=if_match,
        )
        rid = _request_of(ledger, done.campaign, done.seq)
        response.headers["Location"] = f"/v1/campaigns/{campaign_id}/undo-requests/{rid}"
        return _appended(response, done, undo_request_view(ledger, done.campaign, rid))

    @app.get(
        "/v1/campaigns/{campaign_id}/undo-requests",
        tags=["undo"],
        response_model=UndoRequestPage,
        response_model_exclude_unset=True,
    )
    def list_undo_requests(
        campaign_id: CampaignId,
        response: Response,
        caller: Auth,
        status: Literal["pending", "applied", "rejected", "withdrawn"] | None = None,
        after: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
    ) -> dict[str, Any]:
        """Undo requests in seq order, paged with ``after``/``limit``."""
        campaign = caller.campaign
        _etag(response, campaign)
        ids = [
            int(rid)
            for rid, r in campaign.undo_requests.items()
            if int(rid) > after and (status is None or r["status"] == status)
        ]
        page, next_after = _page(ids, limit)
        items = [undo_request_view(caller.ledger, campaign, rid) for rid in page]
        return {"items": items, "version": campaign.version, "next_after": next_after}

    @app.get(
        "/v1/campaigns/{campaign_id}/undo-requests/{rid}",
        tags=["undo"],
        response_model=UndoRequestView,
        response_model_exclude_unset=True,
    )
    def get_undo_request(
        campaign_id: CampaignId, rid: Seq, response: Response, caller: Auth
    ) -> dict[str, Any]:
        _etag(response, caller.campaign)
        return undo_request_view(caller.ledger, caller.campaign, rid)

    @app.post(
        "/v1/campaigns/{campaign_id}/undo-requests/{rid}/approve",
        tags=["undo"],
        response_model=UndoRequestView,
        response_model_exclude_unset=True,
    )
    def approve_undo(
        campaign_id: CampaignId,
        rid: Seq,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """The opponent of the side that asked, or the referee, applies the undo."""
        ledger, _, done = run(
            caller,
            campaign_id,
            lambda c, ctx: c.approve_undo(ctx, rid),
            operation="undo-approve",
            body={"request": rid},
            idem=idem,
            if_match=if_match,
        )
        return _appended(response, done, undo_request_view(ledger, done.campaign, rid))

    @app.post(
        "/v1/campaigns/{campaign_id}/undo-requests/{rid}/reject",
        tags=["undo"],
        response_model=UndoRequestView,
        response_model_exclude_unset=True,
    )
    def reject_undo(
        campaign_id: CampaignId,
        rid: Seq,
        response: Response,
        caller: Auth,
        body: UndoRejection | None = None,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """The opponent or the referee rejects the undo; the side that asked may withdraw it."""
        note = None if body is None else body.note
        ledger, _, done = run(
            caller,
            campaign_id,
            lambda c, ctx: c.reject_undo(ctx, rid, note),
            operation="undo-reject",
            body={"request": rid, "note": note},
            idem=idem,
            if_match=if_match,
        )
        return _appended(response, done, undo_request_view(ledger, done.campaign, rid))

    # ---------------------------------------------------------------- disputes

    @app.post(
        "/v1/campaigns/{campaign_id}/disputes",
        status_code=201,
        tags=["disputes"],
        response_model=DisputeView,
        response_model_exclude_unset=True,
    )
    def file_dispute(
        campaign_id: CampaignId,
        body: DisputeCreate,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """Flag an event; the answer holds the evidence (as ``GET`` does)."""
        ledger, role, done = run(
            caller,
            campaign_id,
            lambda c, ctx: c.file_dispute(ctx, body.seq, body.claim),
            operation="dispute",
            body=body.model_dump(mode="json"),
            idem=idem,
            if_match=if_match,
        )
        response.headers["Location"] = f"/v1/campaigns/{campaign_id}/disputes/{done.seq}"
        return _appended(response, done, dispute_view(ledger, done.campaign, done.seq, role))

    @app.get(
        "/v1/campaigns/{campaign_id}/disputes",
        tags=["disputes"],
        response_model=DisputePage,
        response_model_exclude_unset=True,
    )
    def list_disputes(
        campaign_id: CampaignId,
        response: Response,
        caller: Auth,
        after: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
    ) -> dict[str, Any]:
        """Disputes in seq order (without their evidence), paged with ``after``/``limit``."""
        campaign = caller.campaign
        _etag(response, campaign)
        page, next_after = _page([int(d) for d in campaign.disputes if int(d) > after], limit)
        items = [
            dispute_view(caller.ledger, campaign, did, caller.role, evidence=False) for did in page
        ]
        return {"items": items, "version": campaign.version, "next_after": next_after}

    @app.get(
        "/v1/campaigns/{campaign_id}/disputes/{did}",
        tags=["disputes"],
        response_model=DisputeView,
        response_model_exclude_unset=True,
    )
    def get_dispute(
        campaign_id: CampaignId, did: Seq, response: Response, caller: Auth
    ) -> dict[str, Any]:
        """The dispute with its evidence: the roll's proof checked by the server,
        the state just before and after the event, and for a table roll the
        result re-read from the recorded roll, DRMs and table definition."""
        _etag(response, caller.campaign)
        return dispute_view(caller.ledger, caller.campaign, did, caller.role)

    @app.post(
        "/v1/campaigns/{campaign_id}/disputes/{did}/resolve",
        tags=["disputes"],
        response_model=DisputeView,
        response_model_exclude_unset=True,
    )
    def resolve_dispute(
        campaign_id: CampaignId,
        did: Seq,
        body: DisputeResolution,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """Uphold the event, or revert it through the undo mechanism (only the
        opponent of the side that filed the dispute, or the referee)."""
        ledger, role, done = run(
            caller,
            campaign_id,
            lambda c, ctx: c.resolve_dispute(ctx, did, body.decision, body.note),
            operation="dispute-resolve",
            body={"dispute": did, **body.model_dump(mode="json")},
            idem=idem,
            if_match=if_match,
        )
        return _appended(response, done, dispute_view(ledger, done.campaign, did, role))

    # ---------------------------------------------------------------- statistics

    @app.get(
        "/v1/campaigns/{campaign_id}/dice-stats",
        tags=["read models"],
        response_model=DiceStats,
        response_model_exclude_unset=True,
    )
    def get_dice_stats(
        campaign_id: CampaignId,
        response: Response,
        caller: Auth,
        side: Annotated[str | None, Query(max_length=40)] = None,
        table: Annotated[
            str | None, Query(max_length=60, description="A table id, or 'free' for free rolls")
        ] = None,
        date: Annotated[str | None, Query(max_length=20, description="A CG Date")] = None,
        reverted: Annotated[
            bool, Query(description="Count rolls that were undone (they were still rolled)")
        ] = True,
        at: At = None,
    ) -> dict[str, Any]:
        """Dice statistics over the whole CG: counts, the distribution of the
        2d6 total and of each die, means and chi-square p-values. A Secret roll
        counts only for viewers who may see it (its owner, the referee, and
        everyone once it is revealed). ``at``: as answered live at that event."""
        ledger, role = caller.ledger, caller.role
        _etag(response, caller.campaign)
        campaign = as_of(ledger, caller.campaign, at)
        if date is not None:
            found = campaign.ruleset.normalize_date(date)
            if found is None:
                raise InvalidInput(f"{date!r} is not a {campaign.ruleset_id} CG Date", field="date")
            date = found
        stats = dice_stats(
            ledger.records(campaign),
            role,
            is_revealed=campaign.is_revealed,
            reverted_by=campaign.reverted_by,
            side=side,
            table=table,
            date=date,
            include_reverted=reverted,
        )
        return {**stats, "version": campaign.version}

    # ---------------------------------------------------------------- live feed

    @app.get(
        "/v1/campaigns/{campaign_id}/stream",
        tags=["events"],
        response_class=StreamingResponse,
        responses={200: {"content": {"text/event-stream": {}}}},
    )
    async def stream(
        campaign_id: CampaignId,
        request: Request,
        caller: Auth,
        after: Annotated[int | None, Query(ge=0, le=MAX_INT)] = None,
        follow: Annotated[
            bool, Query(description="false: send the events after `after`, then end")
        ] = True,
        last_event_id: Annotated[str | None, Header(alias="Last-Event-ID", max_length=20)] = None,
    ) -> StreamingResponse:
        """Server-Sent Events: every new event, redacted for the caller, each
        with its signed checkpoint (``id`` is the seq, ``event`` the type,
        ``data`` is ``{"event", "checkpoint"}``). Reconnecting with
        ``Last-Event-ID`` resumes after that seq; ``after`` starts there."""
        ledger, role = caller.ledger, caller.role
        start = caller.campaign.version if after is None else after
        if last_event_id is not None:
            if not (last_event_id.isascii() and last_event_id.isdigit()) or len(last_event_id) > 18:
                raise InvalidInput("Last-Event-ID must be a seq", field="Last-Event-ID")
            start = int(last_event_id)
        return StreamingResponse(
            _feed(ledger, campaign_id, role, start, follow, request),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )


def _page(ids: list[int], limit: int) -> tuple[list[int], int | None]:
    """The first ``limit`` of ``ids`` in order, and the ``after`` of the next page."""
    ordered = sorted(ids)
    page = ordered[:limit]
    return page, page[-1] if len(ordered) > limit else None


def _fetch(ledger: Ledger, campaign_id: str, after: int) -> tuple[Campaign, list[dict[str, Any]]]:
    campaign = ledger.load(campaign_id)
    return campaign, ledger.records(campaign, after=after, limit=500)


async def _feed(
    ledger: Ledger, campaign_id: str, role: str, after: int, follow: bool, request: Request
) -> AsyncIterator[str]:
    loop = asyncio.get_running_loop()
    wake = asyncio.Event()

    def listener(cid: str) -> None:
        if cid == campaign_id:
            loop.call_soon_threadsafe(wake.set)

    ledger.listeners.append(listener)
    try:
        yield f"retry: 3000\n: cgledger live feed of {campaign_id} as {role}\n\n"
        idle = 0.0
        while True:
            wake.clear()
            campaign, records = await run_in_threadpool(_fetch, ledger, campaign_id, after)
            for record in records:
                data = {
                    "event": event_item(campaign, record, role),
                    "checkpoint": ledger.signer.sign(
                        campaign.cid, record["seq"], record["hash"], record["recorded_at"]
                    ),
                }
                after = record["seq"]
                text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
                yield f"id: {after}\nevent: {record['type']}\ndata: {text}\n\n"
            if records:
                idle = 0.0
                continue  # there may be more than one page
            if not follow or await request.is_disconnected():
                return
            try:
                await asyncio.wait_for(wake.wait(), timeout=POLL_SECONDS)
            except TimeoutError:
                idle += POLL_SECONDS
                if idle >= KEEPALIVE_SECONDS:
                    idle = 0.0
                    yield ": keep-alive\n\n"
    finally:
        ledger.listeners.remove(listener)
