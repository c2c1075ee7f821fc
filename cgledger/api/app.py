"""FastAPI entrypoint: translates HTTP to ``cgledger.ledger.Ledger`` calls and
domain errors to RFC 9457 problem+json. No rule lives here."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from http import HTTPStatus
from typing import Annotated, Any

from fastapi import Body, FastAPI, Path, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse
from fastapi.routing import APIRoute
from fastapi_offline import FastAPIOffline
from pydantic import StringConstraints, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from cgledger.api.audit import At, as_of, event_item, install_audit_routes
from cgledger.api.caching import CampaignCaching
from cgledger.api.definitions import install_definition_routes
from cgledger.api.deps import (
    CHECKPOINT_HEADER,
    MAX_INT,
    MAX_PAGE,
    Auth,
    CampaignId,
    IdempotencyKey,
    IfMatch,
    RequestIds,
    RulesetId,
    SideParam,
    TableId,
    _appended,
    _etag,
    _ledger,
    _roll,
    _roll_view,
    _side,
    _table_roll,
    campaign_view,
    problem,
    request_id,
    run,
    short,
)
from cgledger.api.limits import BodyLimit, CheckedRoute, CreateRateLimit, client_address
from cgledger.api.metrics import install_metrics
from cgledger.api.models import (
    ActionResult,
    CampaignCreated,
    CampaignView,
    CGDateView,
    EventPage,
    Health,
    Index,
    RevealedEvent,
    RollView,
    RosterView,
    RulesetInfo,
    TableInfo,
    TableRollView,
)
from cgledger.api.openapi import install_exact_openapi
from cgledger.api.purchases import install_purchase_routes
from cgledger.api.reph import install_reph_routes
from cgledger.api.schemas import CampaignCreate, CGDateCreate, RollCreate, TableRollCreate
from cgledger.api.territory import install_territory_routes
from cgledger.domain.campaign import Campaign
from cgledger.domain.errors import DomainError, NotFound
from cgledger.domain.rulesets import REGISTRY, Action, Ruleset
from cgledger.domain.tables import DrmRequest, describe
from cgledger.domain.visibility import redact
from cgledger.ledger import Done, Ledger, fingerprint
from cgledger.projections.eventlog import export_jsonl, matches
from cgledger.projections.roster import roster_view
from cgledger.settings import Settings
from cgledger.version import VERSION
from cgledger.web import install_dashboard, page, wants_html


def create_app(settings: Settings | None = None) -> FastAPI:
    config = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.ledger = Ledger(config)
        try:
            yield
        finally:
            app.state.ledger.close()

    # /docs and /redoc from assets shipped in a package, never from a CDN: they
    # work offline and leak no reader to a third party.
    app = FastAPIOffline(
        title="cgledger",
        version=VERSION,
        summary="Event-sourced ledger for ASL campaign games, with verifiable dice.",
        lifespan=lifespan,
    )
    app.router.route_class = CheckedRoute
    app.state.create_limit = CreateRateLimit(config.create_per_minute)
    app.state.database = "postgresql" if config.database_url else "sqlite"
    _install_problem_handlers(app)
    _install_service_routes(app)
    _install_routes(app)
    _install_actions(app)
    install_audit_routes(app)
    install_definition_routes(app)
    install_reph_routes(app)
    install_territory_routes(app)
    install_purchase_routes(app)
    install_dashboard(app)
    install_exact_openapi(app)
    install_metrics(app)
    app.add_middleware(CampaignCaching)
    app.add_middleware(RequestIds)
    app.add_middleware(BodyLimit, limit=config.max_body_bytes)
    return app


def _install_service_routes(app: FastAPI) -> None:
    @app.get("/v1/health", tags=["service"], response_model=Health)
    def health(request: Request) -> dict[str, str]:
        """DESIGN §11: answers without a token."""
        return {"status": "ok", "version": VERSION, "database": request.app.state.database}

    @app.get(
        "/",
        tags=["service"],
        response_model=Index,
        responses={200: {"content": {"text/html": {}}}},
    )
    def index(request: Request) -> Any:
        """Where to go from here: the dashboard's landing page to a browser
        (``Accept: text/html``, docs/dashboard.md), these links otherwise."""
        if wants_html(request):
            return page("index.html")
        return {
            "name": "cgledger",
            "version": VERSION,
            "health": "/v1/health",
            "docs": "/docs",
            "openapi": "/openapi.json",
            "rulesets": "/v1/rulesets",
        }

    @app.get("/health", include_in_schema=False)
    def health_elsewhere() -> RedirectResponse:
        return RedirectResponse("/v1/health", status_code=308)


def _install_problem_handlers(app: FastAPI) -> None:
    @app.exception_handler(DomainError)
    async def domain_error(_: Request, exc: DomainError) -> JSONResponse:
        return problem(exc.status, exc.slug, exc.title, exc.detail, rule=exc.rule, field=exc.field)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = []
        for err in exc.errors():
            if err["type"] == "json_invalid":  # its loc ends in a byte offset, not a field
                errors.append({"field": "body", "message": f"malformed JSON: {err['msg']}"})
                continue
            where = ("body", "query", "path", "header")
            loc = [str(part) for part in err["loc"] if part not in where]
            # Never more than a short prefix of what was sent (a key is a loc).
            field = short(".".join(loc) or "body", 100)
            errors.append({"field": field, "message": short(err["msg"], 200)})
            if len(errors) == 20:
                break
        first = errors[0] if errors else {"field": "body", "message": "invalid request"}
        return problem(
            422,
            "invalid-input",
            "Invalid input",
            f"{first['field']}: {first['message']}",
            field=first["field"],
            errors=errors,
        )

    @app.exception_handler(Exception)
    async def unexpected(_: Request, exc: Exception) -> JSONResponse:
        # Still problem+json (DESIGN §3), and never the exception's text, which
        # could hold a value the caller may not see.
        del exc
        return problem(
            500, "internal", "Internal server error", "an unexpected error; it is logged"
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # Keeps the exception's headers: Retry-After on 429; Allow on 405, with
        # every method of the path (the router names only one route's).
        title = HTTPStatus(exc.status_code).phrase
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            headers["Allow"] = ", ".join(_allowed(app, request.url.path))
        return problem(exc.status_code, "http", title, str(exc.detail), headers=headers)


def _allowed(app: FastAPI, path: str) -> list[str]:
    methods: set[str] = set()
    for route in app.router.routes:
        if isinstance(route, APIRoute) and route.path_regex.match(path):
            methods |= route.methods or set()
    if "GET" in methods:
        methods.add("HEAD")
    return sorted(methods)


#: Event type names, one or several separated by commas ("DiceRolled,SecretRevealed").
EVENT_TYPES = r"^\s*[A-Z][A-Za-z0-9]*\s*(,\s*[A-Z][A-Za-z0-9]*\s*)*,?\s*$"


def _canonical_table_id(campaign: Campaign, table_id: str) -> str:
    """A table id with or without its ruleset prefix is one request for idempotency."""
    table = campaign.ruleset.table(table_id)
    return table_id if table is None else table.id


def _ruleset(ruleset: str) -> Ruleset:
    rs = REGISTRY.get(ruleset)
    if rs is None:
        raise NotFound(f"unknown ruleset {ruleset!r}; known: {', '.join(REGISTRY)}")
    return rs


def _install_routes(app: FastAPI) -> None:  # noqa: PLR0915 - one place lists every route
    @app.get("/v1/rulesets", tags=["rulesets"], response_model=list[RulesetInfo])
    def list_rulesets() -> list[dict[str, Any]]:
        """Every ruleset, with its campaigns, sides and CG Date sequences."""
        return [
            {
                "id": rs.id,
                "title": rs.title,
                "sides": list(rs.sides),
                "campaigns": [
                    {
                        "name": c.name,
                        "rule": c.rule,
                        "cg_dates": list(c.calendar),
                        "initial_date": c.initial_date,
                        "extendable": c.extendable,
                        "notes": c.notes,
                    }
                    for c in rs.campaigns.values()
                ],
                "roster": rs.rules.has_roster,
                "actions": [
                    {"path": a.path, "rule": a.rule, "summary": a.summary}
                    for a in rs.rules.actions.values()
                ],
                "reph_steps": [
                    {
                        "rule": st.id,
                        "title": st.title,
                        "markers": list(st.markers),
                        "sides": list(st.sides) or list(rs.sides),
                        "joint": st.joint,
                        "action": st.action,
                        "from_date": st.from_date,
                        "reading": st.reading or None,
                    }
                    for st in rs.reph_steps
                ],
                "scenario_types": list(rs.scenario_types),
                "initiative": None
                if rs.initiative is None
                else {
                    "rule": rs.initiative.rule,
                    "matrix": [
                        {"chits": dict(zip(rs.sides, pair, strict=True)), "scenario": scenario}
                        for pair, scenario in rs.initiative.matrix.items()
                    ],
                },
                "tables": len(rs.tables),
                "tables_url": f"/v1/rulesets/{rs.id}/tables",
                "definition_schema_url": f"/v1/rulesets/{rs.id}/definition-schema",
                "sample_definition_url": f"/v1/rulesets/{rs.id}/sample-definition",
                "notes": rs.notes,
            }
            for rs in REGISTRY.values()
        ]

    @app.get(
        "/v1/rulesets/{ruleset}/tables",
        tags=["rulesets"],
        response_model=list[TableInfo],
        response_model_exclude_unset=True,
    )
    def list_tables(ruleset: RulesetId) -> list[dict[str, Any]]:
        """Every die table of the ruleset: rule, dr/DR, Secret, named DRMs, bands."""
        return [describe(t) for t in _ruleset(ruleset).tables.values()]

    @app.get(
        "/v1/rulesets/{ruleset}/tables/{table_id}",
        tags=["rulesets"],
        response_model=TableInfo,
        response_model_exclude_unset=True,
    )
    def get_table(ruleset: RulesetId, table_id: TableId) -> dict[str, Any]:
        table = _ruleset(ruleset).table(table_id)
        if table is None:
            raise NotFound(f"{ruleset} has no table {table_id!r}")
        return describe(table)

    @app.post(
        "/v1/campaigns",
        status_code=201,
        tags=["campaigns"],
        response_model=CampaignCreated,
        response_model_exclude_unset=True,
    )
    def create_campaign(
        body: CampaignCreate, request: Request, response: Response, idem: IdempotencyKey = None
    ) -> dict[str, Any]:
        """Create a campaign. The response holds the only copy of each token.
        Rate limited per client address (DESIGN §11): 429 with Retry-After."""
        request.app.state.create_limit.check(client_address(request))
        created = _ledger(request).create_campaign(
            ruleset=body.ruleset,
            campaign=body.campaign,
            title=body.title,
            start_date=body.start_date,
            initial_cpp=body.initial_cpp,
            definition=body.definition,
            idempotency_key=idem,
            request_fingerprint=fingerprint("create", body.model_dump(mode="json")),
            request_id=request_id(request),
        )
        response.headers["Location"] = f"/v1/campaigns/{created.campaign.cid}"
        checkpoint = _ledger(request).checkpoint(created.campaign)
        response.headers[CHECKPOINT_HEADER] = json.dumps(checkpoint, separators=(",", ":"))
        if created.replayed:
            # Tokens are shown once: a retry never re-issues them. The status
            # is the first answer's (201), like every idempotent replay.
            response.headers["Idempotent-Replayed"] = "true"
            return {
                **campaign_view(created.campaign),
                "tokens": None,
                "tokens_note": "tokens are shown only in the first response; a retry does "
                "not re-issue them",
                "checkpoint": checkpoint,
            }
        return {
            **campaign_view(created.campaign),
            "tokens": created.tokens,
            "checkpoint": checkpoint,
        }

    @app.get(
        "/v1/campaigns/{campaign_id}",
        tags=["campaigns"],
        response_model=CampaignView,
        response_model_exclude_unset=True,
    )
    def get_campaign(campaign_id: CampaignId, response: Response, caller: Auth) -> dict[str, Any]:
        campaign, role = caller.campaign, caller.role
        _etag(response, campaign)
        return {**campaign_view(campaign), "you": role}

    @app.post(
        "/v1/campaigns/{campaign_id}/rolls",
        status_code=201,
        tags=["dice"],
        response_model=RollView,
        response_model_exclude_unset=True,
    )
    def make_roll(
        campaign_id: CampaignId,
        body: RollCreate,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """Roll 1 or 2 dice under ``cgledger-dice/1``; ``secret`` hides them from the opponent."""
        ledger, role, done = run(
            caller,
            campaign_id,
            lambda c, ctx: c.roll(
                ctx,
                count=body.dice,
                purpose=body.purpose,
                secret=body.secret,
                client_nonce=body.client_nonce,
            ),
            operation="roll",
            body=body.model_dump(mode="json"),
            idem=idem,
            if_match=if_match,
        )
        return _appended(
            response,
            done,
            _roll_view(ledger, done.campaign, role, ledger.record(done.campaign, done.seq)),
        )

    @app.post(
        "/v1/campaigns/{campaign_id}/tables/{table_id}/rolls",
        status_code=201,
        tags=["dice"],
        response_model=TableRollView,
        response_model_exclude_unset=True,
    )
    def roll_table(
        campaign_id: CampaignId,
        table_id: Annotated[str, Path(description="e.g. kgp:8.606-infantry", max_length=60)],
        body: TableRollCreate,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """Roll on a rule table with named DRMs; records and returns the Original
        roll, each DRM as applied, the Final result and the outcome."""
        requests = [
            DrmRequest(id=d.id, count=d.count, value=d.value, note=d.note) for d in body.drm
        ]
        ledger, role, done = run(
            caller,
            campaign_id,
            lambda c, ctx: c.roll_table(
                ctx,
                table_id,
                drm=requests,
                inputs=dict(body.inputs),
                secret=body.secret,
                client_nonce=body.client_nonce,
            ),
            operation=f"table-roll {_canonical_table_id(caller.campaign, table_id)}",
            body=body.model_dump(mode="json"),
            idem=idem,
            if_match=if_match,
        )
        return _appended(
            response,
            done,
            _table_roll(ledger, done.campaign, role, ledger.record(done.campaign, done.seq)),
        )

    @app.get(
        "/v1/campaigns/{campaign_id}/rolls/{index}",
        tags=["dice"],
        response_model=RollView,
        response_model_exclude_unset=True,
    )
    def get_roll(
        campaign_id: CampaignId,
        index: Annotated[int, Path(ge=0, le=MAX_INT)],
        response: Response,
        caller: Auth,
    ) -> dict[str, Any]:
        ledger, campaign, role = caller.ledger, caller.campaign, caller.role
        _etag(response, campaign)
        return _roll(ledger, campaign, role, index)

    @app.post(
        "/v1/campaigns/{campaign_id}/rolls/{index}/reveal",
        tags=["dice"],
        response_model=RollView,
        response_model_exclude_unset=True,
    )
    def reveal_roll(
        campaign_id: CampaignId,
        index: Annotated[int, Path(ge=0, le=MAX_INT)],
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """Publish the seed of a Secret roll (owning side or referee only)."""
        ledger, role, done = run(
            caller,
            campaign_id,
            lambda c, ctx: c.reveal_roll(ctx, index),
            operation="reveal-roll",
            body={"index": index},
            idem=idem,
            if_match=if_match,
        )
        return _appended(response, done, _roll(ledger, done.campaign, role, index))

    @app.post(
        "/v1/campaigns/{campaign_id}/events/{seq}/reveal",
        tags=["events"],
        response_model=RevealedEvent,
        response_model_exclude_unset=True,
    )
    def reveal_event(
        campaign_id: CampaignId,
        seq: Annotated[int, Path(ge=1, le=MAX_INT)],
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """Reveal the secret part of an event (e.g. a secret RG purchase)."""
        ledger, role, done = run(
            caller,
            campaign_id,
            lambda c, ctx: c.reveal(ctx, seq),
            operation="reveal-event",
            body={"seq": seq},
            idem=idem,
            if_match=if_match,
        )
        record = ledger.record(done.campaign, seq)
        return _appended(
            response, done, redact(record, role, revealed=done.campaign.is_revealed(seq))
        )

    @app.get(
        "/v1/campaigns/{campaign_id}/events",
        tags=["events"],
        response_model=EventPage,
        response_model_exclude_unset=True,
    )
    def list_events(
        campaign_id: CampaignId,
        response: Response,
        caller: Auth,
        after: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
        event_type: Annotated[
            list[Annotated[str, StringConstraints(max_length=400, pattern=EVENT_TYPES)]] | None,
            Query(
                alias="type",
                description="Event types (repeat, or separate with commas)",
                max_length=40,
            ),
        ] = None,
        actor: Annotated[
            str | None, Query(description="The role that acted", max_length=40)
        ] = None,
        table: Annotated[str | None, Query(description="A table id", max_length=60)] = None,
        date: Annotated[str | None, Query(description="A CG Date", max_length=20)] = None,
        reverted: Annotated[bool, Query(description="false: leave out reverted events")] = True,
        before: Annotated[
            int | None,
            Query(
                ge=1,
                le=MAX_INT,
                description="Only events with a seq below this (a window ending here: "
                "a reader can page back from the newest end)",
            ),
        ] = None,
    ) -> dict[str, Any]:
        """The event log as the caller may see it; hidden events are stubs, never
        gaps. Each event says which undo reverted it (``reverted_by``). The
        filters read public fields only; ``next_after`` pages on (up to
        ``before``, when given)."""
        ledger, campaign, role = caller.ledger, caller.campaign, caller.role
        _etag(response, campaign)
        types = None
        if event_type is not None:
            types = frozenset(
                t.strip() for part in event_type for t in part.split(",") if t.strip()
            )
        if date is not None:
            date = campaign.ruleset.normalize_date(date) or date
        filtered = types is not None or actor or table or date or not reverted
        items: list[dict[str, Any]] = []
        last = after
        end = campaign.version if before is None else min(campaign.version, before - 1)
        while len(items) < limit and last < end:
            chunk = ledger.records(
                campaign, after=last, limit=min(limit if not filtered else 500, end - last)
            )
            for record in chunk:
                last = record["seq"]
                keep = matches(record, types=types, actor=actor, table=table, date=date) and (
                    reverted or campaign.reverted_by(last) is None
                )
                if keep:
                    items.append(event_item(campaign, record, role))
                    if len(items) == limit:
                        break
        return {
            "items": items,
            "version": campaign.version,
            "next_after": last if last < end else None,
        }

    @app.get("/v1/campaigns/{campaign_id}/export", tags=["events"])
    def export(campaign_id: CampaignId, caller: Auth) -> Response:
        """JSONL of the whole log as the caller may see it; check it with ``cgledger verify``."""
        ledger, campaign, role = caller.ledger, caller.campaign, caller.role
        body = export_jsonl(
            {
                "campaign": campaign.cid,
                "ruleset": campaign.ruleset_id,
                "campaign_name": campaign.campaign_name,
                "exported_at": ledger.clock(),
            },
            ledger.records(campaign),
            role,
            campaign.is_revealed,
        )
        filename = f"cgledger-{campaign.cid}-{role}.jsonl"
        return Response(
            body,
            media_type="application/jsonl",
            headers={
                "Content-Disposition": f'attachment; filename="{filename}"',
                "ETag": f'"{campaign.version}"',
            },
        )

    @app.post(
        "/v1/campaigns/{campaign_id}/cg-dates",
        status_code=201,
        tags=["refit phase"],
        response_model=CGDateView,
        response_model_exclude_unset=True,
    )
    def begin_cg_date(
        campaign_id: CampaignId,
        body: CGDateCreate,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """RePh 8.6121: begin the next CG Date."""
        _, _, done = run(
            caller,
            campaign_id,
            lambda c, ctx: c.begin_cg_date(ctx, body.cg_date),
            operation="cg-date",
            body=body.model_dump(mode="json"),
            idem=idem,
            if_match=if_match,
        )
        return _appended(response, done, {**campaign_view(done.campaign), "seq": done.seq})

    @app.get(
        "/v1/campaigns/{campaign_id}/roster",
        tags=["read models"],
        response_model=RosterView,
        response_model_exclude_unset=True,
    )
    def roster(
        campaign_id: CampaignId,
        response: Response,
        caller: Auth,
        side: SideParam = None,
        at: At = None,
    ) -> dict[str, Any]:
        """The side's CG Roster (the ruleset's columns, e.g. the CPP columns of
        8.6162, 8.619 and 8.622), as the caller may see it; with ``at``, exactly
        as it was answered live at that event."""
        campaign, role = caller.campaign, caller.role
        _etag(response, campaign)
        return roster_view(as_of(caller.ledger, campaign, at), _side(role, side), role)


def _rule_result(ledger: Ledger, done: Done, role: str) -> dict[str, Any]:
    """The event a rule command appended, as the caller sees it, plus its roll if any."""
    campaign = done.campaign
    record = ledger.record(campaign, done.seq)
    out: dict[str, Any] = {
        "seq": done.seq,
        "event": redact(record, role, revealed=campaign.is_revealed(done.seq)),
        "roll": None,
    }
    if "roll" in record["payload"]:
        out["roll"] = _roll_view(ledger, campaign, role, record)
    return out


def _install_actions(app: FastAPI) -> None:
    """A route for every ruleset command (``Rules.actions``) of every registered
    ruleset: ``POST /v1/campaigns/{id}/{action.path}``. The body is validated
    with the model of the campaign's own ruleset, after authentication."""
    by_path: dict[str, list[Action]] = {}
    for rs in REGISTRY.values():
        for action in rs.rules.actions.values():
            by_path.setdefault(action.path, []).append(action)
    for path, actions in by_path.items():
        _action_route(app, path, actions)


def _action_route(app: FastAPI, path: str, actions: list[Action]) -> None:
    schemas: list[dict[str, Any]] = []
    for a in actions:  # rulesets that share a command share its body (8.616 and 9.616)
        found = _inline_schema(a.body.model_json_schema())
        if found not in schemas:
            schemas.append(found)
    # anyOf, not oneOf: a body valid for two rulesets' models is still valid.
    schema = schemas[0] if len(schemas) == 1 else {"anyOf": schemas}
    rules = sorted({a.rule for a in actions})

    def act(
        campaign_id: CampaignId,
        body: Annotated[dict[str, Any], Body()],
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        campaign = caller.campaign
        action = campaign.ruleset.rules.actions.get(path)
        if action is None:
            raise NotFound(f"{campaign.ruleset_id} has no {path}; its rules do not have it")
        try:
            model = action.body.model_validate(body)
        except ValidationError as exc:
            raise RequestValidationError(
                [{**e, "loc": ("body", *e["loc"])} for e in exc.errors(include_url=False)]
            ) from None
        ledger, role, done = run(
            caller,
            campaign_id,
            lambda c, ctx: c.perform(ctx, path, model),
            operation=action.operation or path,
            body=model.model_dump(mode="json"),
            idem=idem,
            if_match=if_match,
        )
        return _appended(response, done, _rule_result(ledger, done, role))

    act.__name__ = "action_" + path.replace("-", "_")
    app.add_api_route(
        f"/v1/campaigns/{{campaign_id}}/{path}",
        act,
        methods=["POST"],
        status_code=201,
        tags=["refit phase"],
        response_model=ActionResult,
        response_model_exclude_unset=True,
        summary=f"{', '.join(rules)}: {actions[0].summary.split(': ', 1)[-1]}",
        description="\n\n".join(a.summary for a in actions),
        openapi_extra={
            "requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}
        },
    )


def _inline_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A model's JSON Schema with its ``$defs`` inlined, for ``openapi_extra``."""
    defs = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                return walk(defs[ref.removeprefix("#/$defs/")])
            return {k: walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    inlined: dict[str, Any] = walk(schema)
    return inlined
