"""``GET /metrics`` for Prometheus, and the requests it counts: by method,
route *template* (never the raw path, which holds campaign ids) and status,
with a latency histogram. No token: restrict it at the reverse proxy
(docs/operations.md). Never cached."""

from __future__ import annotations

import os
import time

from fastapi import FastAPI, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)

from cgledger.api.deps import ASGIApp, Message, Receive, Scope, Send

REQUESTS = Counter(
    "cgledger_http_requests", "HTTP requests answered", ["method", "route", "status"]
)
LATENCY = Histogram(
    "cgledger_http_request_duration_seconds",
    "Time to answer an HTTP request (to its first byte for a stream)",
    ["method", "route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)


class RequestMetrics:
    """Pure ASGI middleware: streams pass through untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def send_counted(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                route = _route(scope)
                LATENCY.labels(scope["method"], route).observe(time.perf_counter() - start)
                REQUESTS.labels(scope["method"], route, str(status)).inc()
            await send(message)

        await self.app(scope, receive, send_counted)


def _route(scope: Scope) -> str:
    """The matched route's template, or "unmatched" (a 404 names no template,
    and its path could be anything a client sent)."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else "unmatched"


def install_metrics(app: FastAPI) -> None:
    @app.get("/metrics", include_in_schema=False)
    def metrics() -> Response:
        registry = REGISTRY
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return Response(
            generate_latest(registry),
            media_type=CONTENT_TYPE_LATEST,
            headers={"Cache-Control": "no-store"},
        )

    app.add_middleware(RequestMetrics)
