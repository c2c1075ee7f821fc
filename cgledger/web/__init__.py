"""The web dashboard (docs/DESIGN.md §12; docs/dashboard.md): static pages and
ES modules shipped in the package, served by the API's own process.

Nothing here renders campaign data: ``/`` and ``/c/{id}`` are the same files for
everyone, and the page reads the campaign through the REST API with the token
from its URL fragment, so it can only ever show what that token's role may
see. The pages load nothing but their own origin, which their
Content-Security-Policy enforces in the browser."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import Scope

STATIC = Path(__file__).parent / "static"

#: Own origin only: no CDN, no inline script, no framing, no form posted elsewhere.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
PAGE_HEADERS = {
    "Content-Security-Policy": CSP,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    # A page is the same file for everyone, but revalidate so an upgrade shows.
    "Cache-Control": "no-cache",
}


#: The assets' headers: the page's, less the CSP, which governs documents.
ASSET_HEADERS = {k: v for k, v in PAGE_HEADERS.items() if k != "Content-Security-Policy"}


def wants_html(request: Request) -> bool:
    """Whether a browser asked for a page (``Accept: text/html``) rather than JSON."""
    accept = request.headers.get("accept", "")
    return "text/html" in accept and "application/json" not in accept.split(",")[0]


def page(name: str) -> Response:
    return FileResponse(STATIC / name, media_type="text/html", headers=PAGE_HEADERS)


class _Assets(StaticFiles):
    """The page's scripts and stylesheet, revalidated by ETag on each load."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.update(ASSET_HEADERS)
        return response


def install_dashboard(app: FastAPI) -> None:
    """``GET /c/{campaign_id}`` (the campaign page), ``GET /editor`` (the CG
    definition editor) and ``/ui/*`` (their assets).
    ``GET /`` answers the landing page to a browser; see ``api.app``."""

    @app.get("/c/{campaign_id}", include_in_schema=False)
    def campaign_page(campaign_id: str) -> Response:
        # The id is not looked up here: an unknown one is the page's own 404
        # message, read with the token, so this route tells nobody which ids exist.
        return page("campaign.html")

    @app.get("/editor", include_in_schema=False)
    def editor_page() -> Response:
        # The definition editor (DESIGN §15): the same file for everyone; it
        # reads and checks a definition through the authoring tools' routes.
        return page("editor.html")

    app.mount("/ui", _Assets(directory=STATIC), name="ui")
