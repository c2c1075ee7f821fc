"""DESIGN §12: "Every POST route a role may use is reachable from its page."

docs/dashboard.md lists every POST route with the page control that makes
it and the roles that may use it. Here: (a) that list is the app's own
(``create_app().routes``), no route missing and none that is gone; (b) in
headless chromium, each control (``data-route="POST <path>"``) is on the page
of every role listed, the campaign driven over the API to the step where the
control belongs (a *scene*). Where chromium is missing (b) skips, as
tests/test_browser.py does (under ``CI=true`` it fails).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import httpx2 as httpx
import pytest
from conftest import Game
from fastapi.routing import APIRoute
from test_browser import KGP, browser, open_page, server

from cgledger.api.app import create_app

__all__ = ["browser", "server"]  # the fixtures, used by name

DOC = Path(__file__).resolve().parent.parent / "docs" / "dashboard.md"
PREFIX = "/v1/campaigns/{campaign_id}"
#: A table row: `POST /path` | rule | control | roles
ROW = re.compile(r"^\| `(POST [^`]+)` \| [^|]+ \| [^|]+ \| ([^|]+) \|$", re.M)


def app_routes() -> set[str]:
    """Every POST route of the app, as the page names it: the path after
    ``/v1/campaigns/{id}`` (a campaign's), or the whole path."""
    out = set()
    for r in create_app().routes:
        if isinstance(r, APIRoute) and "POST" in (r.methods or ()):
            path = r.path
            out.add(
                "POST " + (path.removeprefix(PREFIX) if path.startswith(PREFIX + "/") else path)
            )
    return out


def documented() -> dict[str, list[str]]:
    """The docs' table: route → the roles that may use it."""
    table = DOC.read_text(encoding="utf-8").split("## Every POST route", 1)[1].split("\n## ", 1)[0]
    rows = {m.group(1): [w.strip() for w in m.group(2).split(",")] for m in ROW.finditer(table)}
    assert rows, "docs/dashboard.md has no table of POST routes"
    return rows


def test_every_post_route_of_the_app_is_in_the_docs_table() -> None:
    routes, docs = app_routes(), documented()
    assert len(routes) > 25
    assert not routes - set(docs), (
        f"POST routes missing from docs/dashboard.md: {sorted(routes - set(docs))}"
    )
    assert not set(docs) - routes, (
        f"docs/dashboard.md lists routes the app has not: {sorted(set(docs) - routes)}"
    )


# ---------------------------------------------------------------- (b) in the browser

SIDES = ("US", "German")


def _advance_all(to: str) -> Callable[[Game], None]:
    def go(g: Game) -> None:
        for side in SIDES:
            g.advance(side, to)

    return go


def _proposed(g: Game) -> None:
    """The U.S. proposes one of each kind the Proposals card answers on its
    own route, and files a dispute: the German is the opponent of each."""
    before = g.version()
    created(g.post("US", "/rolls", {"dice": 2, "purpose": "mine"}))
    roll = created(g.post("German", "/rolls", {"dice": 2, "purpose": "his"}))
    created(g.post("US", "/undo-requests", {"to_seq": before, "reason": "back"}))
    patch = {"readings": {"standard-on-map-cost": "plus-100"}}
    created(g.post("US", "/definition-amendments", {"patch": patch, "reason": "read so"}))
    created(g.post("US", "/massacres", {"by": "German"}))
    created(g.post("US", "/disputes", {"seq": roll["seq"], "claim": "not so"}))


def _secret(g: Game) -> None:
    created(g.post("US", "/rolls", {"dice": 2, "purpose": "hidden", "secret": True}))


def _ended(g: Game, at: str) -> None:
    g.end_scenario()
    _advance_all(at)(g)


def _on_19_pm(at: str, chits: bool = False) -> Callable[[Game], None]:
    def go(g: Game) -> None:
        g.next_date()
        if chits:
            _advance_all("8.623")(g)
            g.choose_chits("attack")
        _advance_all(at)(g)

    return go


def _20_am(g: Game) -> None:
    g.to_date("20 AM")
    g.advance("German", "8.618")


#: Where each route's control shows: how to drive a fresh KGP campaign there.
SCENES: dict[str, Callable[[Game], None]] = {
    "start": lambda g: None,
    "secret": _secret,
    "proposed": _proposed,
    "in play": _advance_all("scenario"),
    "8.607": lambda g: _ended(g, "8.607"),
    "8.612": lambda g: _ended(g, "8.612"),
    "8.616": _on_19_pm("8.616"),
    "8.621": _on_19_pm("8.621"),
    "8.622": _on_19_pm("8.622"),
    "8.623": _on_19_pm("8.623"),
    "8.624": _on_19_pm("8.624", chits=True),
    "20 AM": _20_am,
}
SCENE_OF: dict[str, str] = {
    "POST /rolls": "start",
    "POST /tables/{table_id}/rolls": "start",
    "POST /rolls/{index}/reveal": "start",
    "POST /reph/advance": "start",
    "POST /rg-purchases": "start",
    "POST /rg-determinations": "start",
    "POST /control": "start",
    "POST /undo-requests": "start",
    "POST /definition-amendments": "start",
    "POST /massacres": "start",
    "POST /disputes": "start",
    "POST /events/{seq}/reveal": "secret",
    "POST /undo-requests/{rid}/approve": "proposed",
    "POST /undo-requests/{rid}/reject": "proposed",
    "POST /definition-amendments/{aid}/approve": "proposed",
    "POST /definition-amendments/{aid}/reject": "proposed",
    "POST /proposals/{seq}/approve": "proposed",
    "POST /proposals/{seq}/reject": "proposed",
    "POST /proposals/{seq}/withdraw": "proposed",
    "POST /disputes/{did}/resolve": "proposed",
    "POST /scenario-end": "in play",
    "POST /fanaticism": "in play",
    "POST /hidden-fortifications": "8.607",
    "POST /cg-dates": "8.612",
    "POST /cpp-replenishments": "8.616",
    "POST /fortification-purchases": "8.621",
    "POST /recon": "8.622",
    "POST /initiative": "8.623",
    "POST /fortification-setups": "8.624",
    "POST /ammunition-shortage": "20 AM",
}
#: The docs' role words, as the pages of a scene's campaign: the U.S. makes
#: every proposal, dispute and secret, so the German is the opponent.
ROLE_PAGES = {
    "sides": SIDES,
    "referee": ("referee",),
    "opponent": ("German",),
    "proposer": ("US",),
    "owner": ("US",),
    "US": ("US",),
    "German": ("German",),
}


def created(r: Any) -> Any:
    assert r.status_code == 201, r.text
    return r.json()


class Scenes:
    """Each scene's campaign, made once, and its pages, opened once (the
    tests run scene by scene)."""

    def __init__(self, base: str, context: Any) -> None:
        self.base = base
        self.context = context
        self.http = httpx.Client(base_url=base, timeout=15)
        self.games: dict[str, Game] = {}
        self.pages: dict[tuple[str, str], Any] = {}

    def page(self, scene: str, role: str) -> Any:
        # One scene's pages open at a time: each follows its live feed.
        for key in [k for k in self.pages if k[0] != scene]:
            self.pages.pop(key).close()
        if scene not in self.games:
            game = Game(cast(Any, self.http), KGP)
            SCENES[scene](game)
            self.games[scene] = game
        key = (scene, role)
        if key not in self.pages:
            game = self.games[scene]
            link = f"{self.base}/c/{game.id}#token={game.tokens[role]}"
            self.pages[key] = open_page(self.context, link)
        return self.pages[key]

    def close(self) -> None:
        self.http.close()


@pytest.fixture(scope="module")
def scenes(browser: Any, server: str) -> Iterator[Scenes]:
    context = browser.new_context()
    made = Scenes(server, context)
    try:
        yield made
    finally:
        made.close()
        context.close()


def test_every_documented_route_has_a_scene() -> None:
    """Every route of a campaign (the others are named by their whole path:
    creation, and the authoring tools of DESIGN §15, which need none)."""
    campaign = {r for r in documented() if not r.startswith("POST /v1/")}
    assert set(SCENE_OF) == campaign
    assert {w for roles in documented().values() for w in roles} <= {*ROLE_PAGES, "anyone"}


def test_the_landing_page_creates_a_campaign(browser: Any, server: str) -> None:
    assert documented()["POST /v1/campaigns"] == ["anyone"]
    context = browser.new_context()
    try:
        page = open_page(context, server + "/")
        page.wait_for_selector("#create-button", state="attached")
    finally:
        context.close()


#: The routes scene by scene (``Scenes`` keeps one scene's pages open at a time).
ROUTES = [route for _, route in sorted((scene, route) for route, scene in SCENE_OF.items())]


@pytest.mark.parametrize("route", ROUTES)
def test_each_control_is_on_the_page_of_each_role_that_may_use_it(
    scenes: Scenes, route: str
) -> None:
    roles = [p for w in documented()[route] for p in ROLE_PAGES[w]]
    missing = []
    for role in dict.fromkeys(roles):
        page = scenes.page(SCENE_OF[route], role)
        try:
            page.wait_for_selector(f'[data-route="{route}"]', state="attached", timeout=3_000)
        except Exception:  # Playwright's TimeoutError: collected below
            missing.append(role)
        assert page.errors == [], page.errors
    assert not missing, f"{route}: no control on the page of {missing} in scene {SCENE_OF[route]!r}"


def test_each_authoring_tool_has_a_control_on_the_editor(browser: Any, server: str) -> None:
    """DESIGN §15: the authoring tools are sent from the definition editor
    (``/editor``), each from a control that names it, once a definition is
    loaded (the chart tables are its)."""
    tools = [r for r in documented() if r.startswith("POST /v1/definition-tools/")]
    assert len(tools) >= 4
    context = browser.new_context()
    try:
        page = open_page(context, server + "/editor")
        page.click("#sample-load")
        page.wait_for_selector("#charts[data-loaded]", state="attached")
        missing = [r for r in tools if page.query_selector(f'[data-route="{r}"]') is None]
        assert page.errors == [], page.errors
    finally:
        context.close()
    assert not missing, f"no control on /editor for {missing}"
