"""FastAPI entrypoint: builds the app from the routes of each resource (one
module each, every route calling one ``cgledger.service`` function), and
translates domain errors to RFC 9457 problem+json. No rule lives here."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse
from fastapi.routing import APIRoute
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException

from cgledger.api.audit import install_audit_routes
from cgledger.api.authoring import VASL_BOARD, install_authoring_routes
from cgledger.api.caching import CampaignCaching
from cgledger.api.campaigns import install_campaign_routes
from cgledger.api.definition_check import install_definition_check_routes
from cgledger.api.definitions import install_definition_routes
from cgledger.api.deps import RequestIds, problem, short
from cgledger.api.dice import install_dice_routes
from cgledger.api.disputes import install_dispute_routes
from cgledger.api.events import install_event_routes
from cgledger.api.limits import BodyLimit, CheckedRoute, CreateRateLimit
from cgledger.api.massacres import install_massacre_routes
from cgledger.api.metrics import install_metrics
from cgledger.api.models import Health, Index
from cgledger.api.openapi import install_exact_openapi
from cgledger.api.page import install_page_routes
from cgledger.api.proposals import install_proposal_routes
from cgledger.api.readmodels import install_read_model_routes
from cgledger.api.reph import install_reph_routes
from cgledger.api.rulesets import install_ruleset_routes
from cgledger.api.territory import install_territory_routes
from cgledger.api.undo import install_undo_routes
from cgledger.domain.errors import DomainError
from cgledger.service.bootstrap import open_ledger, register_rulesets
from cgledger.settings import Settings
from cgledger.version import VERSION
from cgledger.web import install_dashboard, page, wants_html


def create_app(settings: Settings | None = None) -> FastAPI:
    config = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.ledger = open_ledger(config)
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
    # The rulesets first: their actions become routes. The resources in the
    # order of the OpenAPI document's tags.
    register_rulesets()
    _install_service_routes(app)
    install_ruleset_routes(app)
    install_campaign_routes(app)
    install_dice_routes(app)
    install_event_routes(app)
    install_reph_routes(app)
    install_read_model_routes(app)
    install_page_routes(app)
    install_audit_routes(app)
    install_undo_routes(app)
    install_proposal_routes(app)
    install_massacre_routes(app)
    install_dispute_routes(app)
    install_definition_routes(app)
    install_territory_routes(app)
    install_authoring_routes(app)
    install_definition_check_routes(app)
    install_dashboard(app)
    install_exact_openapi(app)
    install_metrics(app)
    app.add_middleware(CampaignCaching)
    app.add_middleware(RequestIds)
    app.add_middleware(
        BodyLimit,
        limit=config.max_body_bytes,
        paths={VASL_BOARD: config.max_archive_bytes},
    )
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
        return problem(
            exc.status,
            exc.slug,
            exc.title,
            exc.detail,
            rule=exc.rule,
            field=exc.field,
            **exc.extra(),
        )

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = []
        for err in exc.errors():
            if err["type"] == "json_invalid":  # its loc ends in a byte offset, not a field
                errors.append({"field": "body", "message": short(err["msg"], 200)})
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
